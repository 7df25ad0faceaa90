"""The click front end: parse, call an operation, render, exit."""
