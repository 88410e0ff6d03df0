#!/bin/bash

_forge() {
    cur="${COMP_WORDS[COMP_CWORD]}"
    prev="${COMP_WORDS[COMP_CWORD-1]}"
    COMPREPLY=()
    _forge_command 1
}
_forge_command() {
    opts="--verbose -v --color --version -h --help sync s label report help"
    case $prev in
        (--color)
            COMPREPLY=( $(compgen -W "auto always never" -- "$cur") )
            return
            ;;
    esac
    if [[ $COMP_CWORD == "$1" ]]; then
        COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
        return
    fi
    case ${COMP_WORDS[$1]} in
        (sync|s)
            _forge_sync_command $(($1+1))
            return
            ;;
        (label)
            _forge_label_command $(($1+1))
            return
            ;;
        (report)
            _forge_report_command $(($1+1))
            return
            ;;
    esac
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
_forge_sync_command() {
    opts="--verbose -v --color --repo -r --since --prune --no-prune --version -h --help"
    case $prev in
        (--color)
            COMPREPLY=( $(compgen -W "auto always never" -- "$cur") )
            return
            ;;
        (--repo|-r)
            COMPREPLY=( $(compgen -f -- "$cur") )
            return
            ;;
        (--since)
            COMPREPLY=( $(compgen -f -- "$cur") )
            return
            ;;
    esac
    if [[ $COMP_CWORD == "$1" ]]; then
        COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
        return
    fi
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
_forge_label_command() {
    opts="--verbose -v --color --mode --dry-run -n --version -h --help"
    case $prev in
        (--color)
            COMPREPLY=( $(compgen -W "auto always never" -- "$cur") )
            return
            ;;
        (--mode)
            COMPREPLY=( $(compgen -W "add remove set" -- "$cur") )
            return
            ;;
    esac
    if [[ $COMP_CWORD == "$1" ]]; then
        COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
        return
    fi
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
_forge_report_command() {
    opts="--verbose -v --color --version -h --help stale builds"
    case $prev in
        (--color)
            COMPREPLY=( $(compgen -W "auto always never" -- "$cur") )
            return
            ;;
    esac
    if [[ $COMP_CWORD == "$1" ]]; then
        COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
        return
    fi
    case ${COMP_WORDS[$1]} in
        (stale)
            _forge_report_stale_command $(($1+1))
            return
            ;;
        (builds)
            _forge_report_builds_command $(($1+1))
            return
            ;;
    esac
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
_forge_report_stale_command() {
    opts="--verbose -v --color --days --format -f --version -h --help"
    case $prev in
        (--color)
            COMPREPLY=( $(compgen -W "auto always never" -- "$cur") )
            return
            ;;
        (--days)
            COMPREPLY=( $(compgen -f -- "$cur") )
            return
            ;;
        (--format|-f)
            COMPREPLY=( $(compgen -W "text json markdown" -- "$cur") )
            return
            ;;
    esac
    if [[ $COMP_CWORD == "$1" ]]; then
        COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
        return
    fi
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
_forge_report_builds_command() {
    opts="--verbose -v --color --status --output -o --version -h --help"
    case $prev in
        (--color)
            COMPREPLY=( $(compgen -W "auto always never" -- "$cur") )
            return
            ;;
        (--status)
            COMPREPLY=( $(compgen -W "pending running passed failed canceled skipped" -- "$cur") )
            return
            ;;
        (--output|-o)
            COMPREPLY=( $(compgen -f -- "$cur") )
            return
            ;;
    esac
    if [[ $COMP_CWORD == "$1" ]]; then
        COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
        return
    fi
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}

complete -F _forge forge
