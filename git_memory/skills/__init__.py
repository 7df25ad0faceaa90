"""Skills: recall contexts and skill candidates."""
