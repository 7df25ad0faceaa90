# fish completion for git-memory: load the script of the click release git-memory runs with.
env _GIT_MEMORY_COMPLETE=fish_source git-memory | source
