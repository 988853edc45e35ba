_pubmed() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="pubmed"
                ;;
            pubmed,cache)
                cmd="pubmed__subcmd__cache"
                ;;
            pubmed,cite)
                cmd="pubmed__subcmd__cite"
                ;;
            pubmed,completions)
                cmd="pubmed__subcmd__completions"
                ;;
            pubmed,config)
                cmd="pubmed__subcmd__config"
                ;;
            pubmed,convert)
                cmd="pubmed__subcmd__convert"
                ;;
            pubmed,fetch)
                cmd="pubmed__subcmd__fetch"
                ;;
            pubmed,fulltext)
                cmd="pubmed__subcmd__fulltext"
                ;;
            pubmed,help)
                cmd="pubmed__subcmd__help"
                ;;
            pubmed,match)
                cmd="pubmed__subcmd__match"
                ;;
            pubmed,mcp)
                cmd="pubmed__subcmd__mcp"
                ;;
            pubmed,mesh)
                cmd="pubmed__subcmd__mesh"
                ;;
            pubmed,related)
                cmd="pubmed__subcmd__related"
                ;;
            pubmed,rerun)
                cmd="pubmed__subcmd__rerun"
                ;;
            pubmed,search)
                cmd="pubmed__subcmd__search"
                ;;
            pubmed,spell)
                cmd="pubmed__subcmd__spell"
                ;;
            pubmed__subcmd__cache,clear)
                cmd="pubmed__subcmd__cache__subcmd__clear"
                ;;
            pubmed__subcmd__cache,help)
                cmd="pubmed__subcmd__cache__subcmd__help"
                ;;
            pubmed__subcmd__cache,path)
                cmd="pubmed__subcmd__cache__subcmd__path"
                ;;
            pubmed__subcmd__cache,stats)
                cmd="pubmed__subcmd__cache__subcmd__stats"
                ;;
            pubmed__subcmd__cache__subcmd__help,clear)
                cmd="pubmed__subcmd__cache__subcmd__help__subcmd__clear"
                ;;
            pubmed__subcmd__cache__subcmd__help,help)
                cmd="pubmed__subcmd__cache__subcmd__help__subcmd__help"
                ;;
            pubmed__subcmd__cache__subcmd__help,path)
                cmd="pubmed__subcmd__cache__subcmd__help__subcmd__path"
                ;;
            pubmed__subcmd__cache__subcmd__help,stats)
                cmd="pubmed__subcmd__cache__subcmd__help__subcmd__stats"
                ;;
            pubmed__subcmd__config,help)
                cmd="pubmed__subcmd__config__subcmd__help"
                ;;
            pubmed__subcmd__config,path)
                cmd="pubmed__subcmd__config__subcmd__path"
                ;;
            pubmed__subcmd__config,set)
                cmd="pubmed__subcmd__config__subcmd__set"
                ;;
            pubmed__subcmd__config,show)
                cmd="pubmed__subcmd__config__subcmd__show"
                ;;
            pubmed__subcmd__config__subcmd__help,help)
                cmd="pubmed__subcmd__config__subcmd__help__subcmd__help"
                ;;
            pubmed__subcmd__config__subcmd__help,path)
                cmd="pubmed__subcmd__config__subcmd__help__subcmd__path"
                ;;
            pubmed__subcmd__config__subcmd__help,set)
                cmd="pubmed__subcmd__config__subcmd__help__subcmd__set"
                ;;
            pubmed__subcmd__config__subcmd__help,show)
                cmd="pubmed__subcmd__config__subcmd__help__subcmd__show"
                ;;
            pubmed__subcmd__help,cache)
                cmd="pubmed__subcmd__help__subcmd__cache"
                ;;
            pubmed__subcmd__help,cite)
                cmd="pubmed__subcmd__help__subcmd__cite"
                ;;
            pubmed__subcmd__help,completions)
                cmd="pubmed__subcmd__help__subcmd__completions"
                ;;
            pubmed__subcmd__help,config)
                cmd="pubmed__subcmd__help__subcmd__config"
                ;;
            pubmed__subcmd__help,convert)
                cmd="pubmed__subcmd__help__subcmd__convert"
                ;;
            pubmed__subcmd__help,fetch)
                cmd="pubmed__subcmd__help__subcmd__fetch"
                ;;
            pubmed__subcmd__help,fulltext)
                cmd="pubmed__subcmd__help__subcmd__fulltext"
                ;;
            pubmed__subcmd__help,help)
                cmd="pubmed__subcmd__help__subcmd__help"
                ;;
            pubmed__subcmd__help,match)
                cmd="pubmed__subcmd__help__subcmd__match"
                ;;
            pubmed__subcmd__help,mcp)
                cmd="pubmed__subcmd__help__subcmd__mcp"
                ;;
            pubmed__subcmd__help,mesh)
                cmd="pubmed__subcmd__help__subcmd__mesh"
                ;;
            pubmed__subcmd__help,related)
                cmd="pubmed__subcmd__help__subcmd__related"
                ;;
            pubmed__subcmd__help,rerun)
                cmd="pubmed__subcmd__help__subcmd__rerun"
                ;;
            pubmed__subcmd__help,search)
                cmd="pubmed__subcmd__help__subcmd__search"
                ;;
            pubmed__subcmd__help,spell)
                cmd="pubmed__subcmd__help__subcmd__spell"
                ;;
            pubmed__subcmd__help__subcmd__cache,clear)
                cmd="pubmed__subcmd__help__subcmd__cache__subcmd__clear"
                ;;
            pubmed__subcmd__help__subcmd__cache,path)
                cmd="pubmed__subcmd__help__subcmd__cache__subcmd__path"
                ;;
            pubmed__subcmd__help__subcmd__cache,stats)
                cmd="pubmed__subcmd__help__subcmd__cache__subcmd__stats"
                ;;
            pubmed__subcmd__help__subcmd__config,path)
                cmd="pubmed__subcmd__help__subcmd__config__subcmd__path"
                ;;
            pubmed__subcmd__help__subcmd__config,set)
                cmd="pubmed__subcmd__help__subcmd__config__subcmd__set"
                ;;
            pubmed__subcmd__help__subcmd__config,show)
                cmd="pubmed__subcmd__help__subcmd__config__subcmd__show"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        pubmed)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 1 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cache)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version path stats clear help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cache__subcmd__clear)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cache__subcmd__help)
            opts="path stats clear help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cache__subcmd__help__subcmd__clear)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cache__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cache__subcmd__help__subcmd__path)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cache__subcmd__help__subcmd__stats)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cache__subcmd__path)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cache__subcmd__stats)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__cite)
            opts="-i -s -f -q -v -h -V --input --style --list-styles --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -i)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --style)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -s)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text html markdown" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text html markdown" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__completions)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version bash elvish fish powershell zsh"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__config)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version show path set help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__config__subcmd__help)
            opts="show path set help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__config__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__config__subcmd__help__subcmd__path)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__config__subcmd__help__subcmd__set)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__config__subcmd__help__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__config__subcmd__path)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__config__subcmd__set)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version api_key email tool eutils_url idconv_url request_gap_ms max_retries retry_base_ms deadline_s shared_budget europepmc_url cache_mode cache_max_bytes cache_dir"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__config__subcmd__show)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "text json table" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json table" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__convert)
            opts="-i -f -q -v -h -V --from --input --to --fallback --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -W "pmid pmcid doi" -- "${cur}"))
                    return 0
                    ;;
                --input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -i)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --to)
                    COMPREPLY=($(compgen -W "pmid pmcid doi" -- "${cur}"))
                    return 0
                    ;;
                --fallback)
                    COMPREPLY=($(compgen -W "pubmed" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json ndjson csv tsv ids" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table json ndjson csv tsv ids" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__fetch)
            opts="-i -f -q -v -h -V --input --bib-key --bib-unicode --output --resume --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -i)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --bib-key)
                    COMPREPLY=($(compgen -W "pmid author-year" -- "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "abstract medline xml json ndjson csv tsv table ris bibtex csl-json" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "abstract medline xml json ndjson csv tsv table ris bibtex csl-json" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__fulltext)
            opts="-i -f -q -v -h -V --input --section --output --resume --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -i)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --section)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "markdown text json ndjson jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "markdown text json ndjson jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help)
            opts="spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__cache)
            opts="path stats clear"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__cache__subcmd__clear)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__cache__subcmd__path)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__cache__subcmd__stats)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__cite)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__completions)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__config)
            opts="show path set"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__config__subcmd__path)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__config__subcmd__set)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__config__subcmd__show)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 4 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__convert)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__fetch)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__fulltext)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__help)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__match)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__mcp)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__mesh)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__related)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__rerun)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__search)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__help__subcmd__spell)
            opts=""
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 3 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__match)
            opts="-f -q -v -h -V --from --write-back --bib-out --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --from)
                    COMPREPLY=($(compgen -W "pipe csv tsv bibtex ris" -- "${cur}"))
                    return 0
                    ;;
                --bib-out)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --write-back)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json ndjson tsv ids" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table json ndjson tsv ids" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__mcp)
            opts="-f -q -v -h -V --http --token --allow-origin --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --http)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --token)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --allow-origin)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table text json ndjson csv tsv ids abstract medline xml ris bibtex csl-json html markdown jats" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__mesh)
            opts="-f -q -v -h -V --tree --max --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --max)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json ndjson tsv ids" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table json ndjson tsv ids" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__related)
            opts="-i -f -q -v -h -V --input --kind --retmax --detail --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --input)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                -i)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --kind)
                    COMPREPLY=($(compgen -W "similar cited-by references" -- "${cur}"))
                    return 0
                    ;;
                --retmax)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --detail)
                    COMPREPLY=($(compgen -W "full brief ids" -- "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json ndjson csv tsv ids" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table json ndjson csv tsv ids" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__rerun)
            opts="-f -q -v -h -V --id --report --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --id)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json markdown" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table json markdown" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__search)
            opts="-f -q -v -h -V --field --spell --mindate --maxdate --datetype --reldate --author --journal --pubtype --mesh --language --has-abstract --free-full-text --species --retmax --retstart --count --sort --all --record --detail --output --resume --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --field)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --spell)
                    COMPREPLY=($(compgen -W "suggest apply" -- "${cur}"))
                    return 0
                    ;;
                --mindate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --maxdate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --datetype)
                    COMPREPLY=($(compgen -W "pdat edat mdat" -- "${cur}"))
                    return 0
                    ;;
                --reldate)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --author)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --journal)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --pubtype)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --mesh)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --language)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --species)
                    COMPREPLY=($(compgen -W "humans animals" -- "${cur}"))
                    return 0
                    ;;
                --retmax)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --retstart)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --sort)
                    COMPREPLY=($(compgen -W "relevance pub_date author journal" -- "${cur}"))
                    return 0
                    ;;
                --record)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --detail)
                    COMPREPLY=($(compgen -W "full brief ids" -- "${cur}"))
                    return 0
                    ;;
                --output)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "table json ndjson csv tsv ids" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "table json ndjson csv tsv ids" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
        pubmed__subcmd__spell)
            opts="-f -q -v -h -V --format --color --quiet --verbose --no-progress --api-key --email --tool --eutils-url --idconv-url --europepmc-url --timeout --cache --help --version"
            if [[ ${cur} == -* || ${COMP_CWORD} -eq 2 ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --format)
                    COMPREPLY=($(compgen -W "text json table" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json table" -- "${cur}"))
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --api-key)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --email)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --tool)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --eutils-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --idconv-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --europepmc-url)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --timeout)
                    COMPREPLY=($(compgen -f "${cur}"))
                    return 0
                    ;;
                --cache)
                    COMPREPLY=($(compgen -W "on searches read refresh off" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _pubmed -o nosort -o bashdefault -o default pubmed
else
    complete -F _pubmed -o bashdefault -o default pubmed
fi
