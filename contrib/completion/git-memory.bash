_git_memory_completion() {
    local IFS=$'\n'
    local response

    response=$(env COMP_WORDS="${COMP_WORDS[*]}" COMP_CWORD=$COMP_CWORD _GIT_MEMORY_COMPLETE=bash_complete $1)

    for completion in $response; do
        IFS=',' read type value <<< "$completion"

        if [[ $type == 'dir' ]]; then
            COMPREPLY=()
            compopt -o dirnames
        elif [[ $type == 'file' ]]; then
            COMPREPLY=()
            compopt -o default
        elif [[ $type == 'plain' ]]; then
            COMPREPLY+=($value)
        fi
    done

    return 0
}

_git_memory_completion_setup() {
    complete -o nosort -F _git_memory_completion git-memory
}

_git_memory_completion_setup;

_git_memory() {
    local words=("git-memory" "${words[@]:2}")
    local response completion type value
    response=$(env COMP_WORDS="${words[*]}" COMP_CWORD=$((cword - 1)) \
        _GIT_MEMORY_COMPLETE=bash_complete git-memory 2>/dev/null)
    local IFS=$'\n'
    for completion in $response; do
        IFS=',' read -r type value <<< "$completion"
        if [[ $type == 'plain' ]]; then
            COMPREPLY+=("$value")
        fi
    done
}
