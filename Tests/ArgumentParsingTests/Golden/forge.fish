# fish completion for forge, generated from its command table.
function __forge_command_path
    set -l path forge
    set -l words (commandline -opc)
    set -e words[1]
    for word in $words
        switch "$path $word"
            case 'forge sync' 'forge s'
                set path forge sync
            case 'forge label'
                set path forge label
            case 'forge report'
                set path forge report
            case 'forge report stale'
                set path forge report stale
            case 'forge report builds'
                set path forge report builds
        end
    end
    echo $path
end

complete -c forge -n 'test (__forge_command_path) = "forge"' -f -a 'sync' -d 'Fetch issues and merge requests.'
complete -c forge -n 'test (__forge_command_path) = "forge"' -f -a 'label' -d 'Add or remove labels on an issue.'
complete -c forge -n 'test (__forge_command_path) = "forge"' -f -a 'report' -d 'Summarise the state of a repository.'
complete -c forge -n 'test (__forge_command_path) = "forge"' -f -a 'help' -d 'Show subcommand help information.'
complete -c forge -n 'test (__forge_command_path) = "forge"' -s v -l verbose -d 'Print more detail.'
complete -c forge -n 'test (__forge_command_path) = "forge"' -l color -r -f -a 'auto always never' -d 'When to use colour.'
complete -c forge -n 'test (__forge_command_path) = "forge"' -l version -d 'Show the version.'
complete -c forge -n 'test (__forge_command_path) = "forge"' -s h -l help -d 'Show help information.'
complete -c forge -n 'test (__forge_command_path) = "forge sync"' -s v -l verbose -d 'Print more detail.'
complete -c forge -n 'test (__forge_command_path) = "forge sync"' -l color -r -f -a 'auto always never' -d 'When to use colour.'
complete -c forge -n 'test (__forge_command_path) = "forge sync"' -s r -l repo -r -F -d 'A repository to sync (repeatable).'
complete -c forge -n 'test (__forge_command_path) = "forge sync"' -l since -r -F -d 'Only fetch items updated after this date, or within this duration.'
complete -c forge -n 'test (__forge_command_path) = "forge sync"' -l prune -d 'Remove items deleted upstream.'
complete -c forge -n 'test (__forge_command_path) = "forge sync"' -l no-prune -d 'Remove items deleted upstream.'
complete -c forge -n 'test (__forge_command_path) = "forge sync"' -l version -d 'Show the version.'
complete -c forge -n 'test (__forge_command_path) = "forge sync"' -s h -l help -d 'Show help information.'
complete -c forge -n 'test (__forge_command_path) = "forge label"' -s v -l verbose -d 'Print more detail.'
complete -c forge -n 'test (__forge_command_path) = "forge label"' -l color -r -f -a 'auto always never' -d 'When to use colour.'
complete -c forge -n 'test (__forge_command_path) = "forge label"' -l mode -r -f -a 'add remove set' -d 'How to apply the labels.'
complete -c forge -n 'test (__forge_command_path) = "forge label"' -s n -l dry-run -d 'Print what would change without changing it.'
complete -c forge -n 'test (__forge_command_path) = "forge label"' -l version -d 'Show the version.'
complete -c forge -n 'test (__forge_command_path) = "forge label"' -s h -l help -d 'Show help information.'
complete -c forge -n 'test (__forge_command_path) = "forge report"' -f -a 'stale' -d 'List issues nobody has touched for a while.'
complete -c forge -n 'test (__forge_command_path) = "forge report"' -f -a 'builds' -d 'List builds by status.'
complete -c forge -n 'test (__forge_command_path) = "forge report"' -s v -l verbose -d 'Print more detail.'
complete -c forge -n 'test (__forge_command_path) = "forge report"' -l color -r -f -a 'auto always never' -d 'When to use colour.'
complete -c forge -n 'test (__forge_command_path) = "forge report"' -l version -d 'Show the version.'
complete -c forge -n 'test (__forge_command_path) = "forge report"' -s h -l help -d 'Show help information.'
complete -c forge -n 'test (__forge_command_path) = "forge report stale"' -s v -l verbose -d 'Print more detail.'
complete -c forge -n 'test (__forge_command_path) = "forge report stale"' -l color -r -f -a 'auto always never' -d 'When to use colour.'
complete -c forge -n 'test (__forge_command_path) = "forge report stale"' -l days -r -F -d 'How many idle days make an issue stale.'
complete -c forge -n 'test (__forge_command_path) = "forge report stale"' -s f -l format -r -f -a 'text json markdown' -d 'The output format.'
complete -c forge -n 'test (__forge_command_path) = "forge report stale"' -l version -d 'Show the version.'
complete -c forge -n 'test (__forge_command_path) = "forge report stale"' -s h -l help -d 'Show help information.'
complete -c forge -n 'test (__forge_command_path) = "forge report builds"' -s v -l verbose -d 'Print more detail.'
complete -c forge -n 'test (__forge_command_path) = "forge report builds"' -l color -r -f -a 'auto always never' -d 'When to use colour.'
complete -c forge -n 'test (__forge_command_path) = "forge report builds"' -l status -r -f -a 'pending running passed failed canceled skipped' -d 'Only builds in this status.'
complete -c forge -n 'test (__forge_command_path) = "forge report builds"' -s o -l output -r -F -d 'Where to write the report.'
complete -c forge -n 'test (__forge_command_path) = "forge report builds"' -l version -d 'Show the version.'
complete -c forge -n 'test (__forge_command_path) = "forge report builds"' -s h -l help -d 'Show help information.'
