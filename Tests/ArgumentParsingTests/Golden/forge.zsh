#compdef forge

_forge() {
    integer ret=1
    local -a args
    args+=(
        '(-v --verbose)'{-v,--verbose}'[Print more detail.]'
        '(--color)--color[When to use colour.]:when:(auto always never)'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S $args[@] && ret=0
    case $state in
        (command)
            local subcommands
            subcommands=(
                'sync:Fetch issues and merge requests.'
                's:Fetch issues and merge requests.'
                'label:Add or remove labels on an issue.'
                'report:Summarise the state of a repository.'
                'help:Show subcommand help information.'
            )
            _describe "subcommand" subcommands
            ;;
        (arg)
            case ${words[1]} in
                (sync|s)
                    _forge_sync
                    ;;
                (label)
                    _forge_label
                    ;;
                (report)
                    _forge_report
                    ;;
            esac
            ;;
    esac

    return ret
}

_forge_sync() {
    integer ret=1
    local -a args
    args+=(
        '(-v --verbose)'{-v,--verbose}'[Print more detail.]'
        '(--color)--color[When to use colour.]:when:(auto always never)'
        '*'{-r,--repo}'[A repository to sync (repeatable).]:owner/name:_files'
        '(--since)--since[Only fetch items updated after this date, or within this duration.]:date-or-duration:_files'
        '(--prune --no-prune)'{--prune,--no-prune}'[Remove items deleted upstream.]'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S $args[@] && ret=0

    return ret
}

_forge_label() {
    integer ret=1
    local -a args
    args+=(
        '(-v --verbose)'{-v,--verbose}'[Print more detail.]'
        '(--color)--color[When to use colour.]:when:(auto always never)'
        '(--mode)--mode[How to apply the labels.]:mode:(add remove set)'
        '(-n --dry-run)'{-n,--dry-run}'[Print what would change without changing it.]'
        ':issue:_files'
        '*:labels:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S $args[@] && ret=0

    return ret
}

_forge_report() {
    integer ret=1
    local -a args
    args+=(
        '(-v --verbose)'{-v,--verbose}'[Print more detail.]'
        '(--color)--color[When to use colour.]:when:(auto always never)'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
        '(-): :->command'
        '(-)*:: :->arg'
    )
    _arguments -w -s -S $args[@] && ret=0
    case $state in
        (command)
            local subcommands
            subcommands=(
                'stale:List issues nobody has touched for a while.'
                'builds:List builds by status.'
            )
            _describe "subcommand" subcommands
            ;;
        (arg)
            case ${words[1]} in
                (stale)
                    _forge_report_stale
                    ;;
                (builds)
                    _forge_report_builds
                    ;;
            esac
            ;;
    esac

    return ret
}

_forge_report_stale() {
    integer ret=1
    local -a args
    args+=(
        '(-v --verbose)'{-v,--verbose}'[Print more detail.]'
        '(--color)--color[When to use colour.]:when:(auto always never)'
        '(--days)--days[How many idle days make an issue stale.]:days:_files'
        '(-f --format)'{-f,--format}'[The output format.]:format:(text json markdown)'
        '::repo:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S $args[@] && ret=0

    return ret
}

_forge_report_builds() {
    integer ret=1
    local -a args
    args+=(
        '(-v --verbose)'{-v,--verbose}'[Print more detail.]'
        '(--color)--color[When to use colour.]:when:(auto always never)'
        '*--status[Only builds in this status.]:status:(pending running passed failed canceled skipped)'
        '(-o --output)'{-o,--output}'[Where to write the report.]:file:_files'
        '--version[Show the version.]'
        '(-h --help)'{-h,--help}'[Show help information.]'
    )
    _arguments -w -s -S $args[@] && ret=0

    return ret
}

_forge "$@"
