# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_pubmed_global_optspecs
    string join \n f/format= color= q/quiet v/verbose no-progress api-key= email= tool= eutils-url= idconv-url= europepmc-url= timeout= cache= h/help V/version
end

function __fish_pubmed_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_pubmed_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_pubmed_using_subcommand
    set -l cmd (__fish_pubmed_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c pubmed -n "__fish_pubmed_needs_command" -s f -l format -d 'Output format; each command takes its own (see `pubmed help COMMAND`)' -r -f -a "table\t''
text\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''
abstract\t''
medline\t''
xml\t''
ris\t''
bibtex\t''
csl-json\t''
html\t''
markdown\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_needs_command" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_needs_command" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_needs_command" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_needs_command" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_needs_command" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_needs_command" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_needs_command" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_needs_command" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_needs_command" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_needs_command" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_needs_command" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_needs_command" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_needs_command" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_needs_command" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "spell" -d 'Correct the spelling of a PubMed query with ESpell, in place'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "search" -d 'Search PubMed (ESearch + ESummary) and say what PubMed did to the query'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "convert" -d 'Convert between PMID, PMCID and DOI with the PMC ID Converter, one record per input'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "related" -d 'PubMed\'s similar articles, citing articles or references of PMIDs (ELink), one record per input'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "fetch" -d 'Full PubMed records (abstract, authors, MeSH, grants, retractions) with EFetch, one per input PMID'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "cite" -d 'Formatted references (APA, Vancouver, AMA, any CSL style), one per input PMID'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "fulltext" -d 'Open-access full text from PMC (JATS via EFetch db=pmc) as Markdown, text, JSON or JATS, one per input PMID, PMCID or DOI'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "mesh" -d 'Look up MeSH headings (ESearch + ESummary db=mesh): UI, scope note, entry terms, tree numbers, the clause to search'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "match" -d 'Find the PMIDs of references with ECitMatch (journal, year, volume, first page, first author), one record per input'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "rerun" -d 'Run recorded searches (search --record) again: PMIDs added and removed, counts then and now, translation changes; --report writes a PRISMA-S summary'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "config" -d 'Show or change the configuration file (API key, e-mail, URLs, policy knobs)'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "cache" -d 'The local cache of NCBI records: where it is, what it holds, clear it'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "mcp" -d 'Serve the PubMed tools (pubmed_search_articles, pubmed_spell_check, pubmed_convert_ids, pubmed_fetch_articles, pubmed_format_citations, pubmed_find_related, pubmed_fetch_fulltext, pubmed_lookup_mesh, pubmed_lookup_citation) over MCP: stdio, or streamable HTTP with --http'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c pubmed -n "__fish_pubmed_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -s f -l format -d 'Output format [default: table on a terminal, text in a pipe]' -r -f -a "text\t''
json\t''
table\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand spell" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l field -d 'Limit untagged terms to one field (tag, long name or EInfo name: ti, title, TITL)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l spell -d 'On zero hits, spell-check the query and print the suggestion (=apply: search it)' -r -f -a "suggest\t''
apply\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l mindate -d 'Earliest date: YYYY, YYYY/MM or YYYY/MM/DD (also with - or .)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l maxdate -d 'Latest date: YYYY, YYYY/MM or YYYY/MM/DD' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l datetype -d 'Which date the range applies to: publication, Entrez or modification' -r -f -a "pdat\t''
edat\t''
mdat\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l reldate -d 'Only the last N days (0 = no limit); combined with --mindate/--maxdate' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l author -d 'Author, e.g. "Smith J"' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l journal -d 'Journal title or abbreviation' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l pubtype -d 'Publication type, e.g. Review (repeatable; OR-ed)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l mesh -d 'MeSH term (repeatable; AND-ed)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l language -d 'Language, e.g. english' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l species -d 'Only humans or only animals' -r -f -a "humans\t''
animals\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l retmax -d 'Records per page [default: 20; ≤ 1,000 with summaries, ≤ 10,000 IDs; 0 = count only]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l retstart -d 'First record, 0-based (PubMed serves records 0–9,998)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l sort -d 'Sort order' -r -f -a "relevance\t''
pub_date\t''
author\t''
journal\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l record -d 'Append a record of this search (query, translation, limits, UTC time, count, PMIDs, SHA-256) to FILE, one JSON line (docs/recorded.md)' -r -F
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l detail -d 'Record detail [default: full; ids with -f ids and with --all]' -r -f -a "full\t''
brief\t''
ids\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l output -d 'With --all: write to FILE instead of stdout, resumable with --resume' -r -F
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -s f -l format -d 'Output format [default: table on a terminal, ids in a pipe]' -r -f -a "table\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l has-abstract -d 'Only records with an abstract'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l free-full-text -d 'Only free full text'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l count -d 'Print the number of hits only'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l all -d 'Every PMID of the query, past PubMed\'s 9,999-record window, streamed (formats ids, ndjson, csv, tsv; summaries with --detail brief|full)'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l resume -d 'Continue the run FILE holds: what it has is not asked for again (needs --output)'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand search" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l from -d 'The type of every input ID [default: detected per ID]' -r -f -a "pmid\t''
pmcid\t''
doi\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -s i -l input -d 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l to -d 'Print only this ID type, one line per input line (implies -f ids)' -r -f -a "pmid\t''
pmcid\t''
doi\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l fallback -d 'Look up IDs the Converter has no record of (not in PMC) in PubMed: a PMID\'s DOI, a DOI\'s PMID; such records say source "pubmed"' -r -f -a "pubmed\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -s f -l format -d 'Output format [default: table on a terminal, tsv in a pipe; ids with --to]' -r -f -a "table\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand convert" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -s i -l input -d 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l kind -d 'similar: PubMed\'s similar articles; cited-by: articles citing it; references: articles it cites (both from PubMed\'s PMC-based citation links, so counts can be lower than other citation indexes)' -r -f -a "similar\t''
cited-by\t''
references\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l retmax -d 'Keep at most N linked PMIDs per input [default: all NCBI returns]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l detail -d 'Summaries of the linked articles [default: full with -f table, else ids]' -r -f -a "full\t''
brief\t''
ids\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -s f -l format -d 'Output format [default: table on a terminal, ids in a pipe]' -r -f -a "table\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand related" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -s i -l input -d 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l bib-key -d 'BibTeX keys: pmid (pmid12091962) or author-year (Smith2020, then Smith2020a, …) [default: pmid]' -r -f -a "pmid\t''
author-year\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l output -d 'Write to FILE instead of stdout; with -f ndjson, resumable with --resume' -r -F
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -s f -l format -d 'Output format [default: abstract on a terminal, ndjson in a pipe]' -r -f -a "abstract\t''
medline\t''
xml\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
table\t''
ris\t''
bibtex\t''
csl-json\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l bib-unicode -d 'BibTeX: keep non-ASCII letters as UTF-8 (biblatex + biber) instead of LaTeX commands'
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l resume -d 'Continue the run FILE holds: PMIDs it has are not fetched again (needs --output, -f ndjson)'
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand fetch" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -s i -l input -d 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -s s -l style -d 'Citation style: apa, vancouver, ama, nlm, harvard, chicago-author-date, ieee, nature, any bundled style name, or a .csl file [default: vancouver]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -s f -l format -d 'Output format [default: text]' -r -f -a "text\t''
html\t''
markdown\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l list-styles -d 'Print the style names and exit'
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand cite" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -s i -l input -d 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l section -d 'Only these sections: a sec-type (methods, results, …) or words of a title, comma-separated' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l output -d 'Write to FILE instead of stdout; with -f ndjson, resumable with --resume' -r -F
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -s f -l format -d 'Output format [default: markdown]' -r -f -a "markdown\t''
text\t''
json\t''
ndjson\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l resume -d 'Continue the run FILE holds: IDs it has are not asked again (needs --output, -f ndjson)'
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand fulltext" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l max -d 'Records to show (1 to 20)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -s f -l format -d 'Output format [default: table on a terminal, tsv in a pipe]' -r -f -a "table\t''
json\t''
ndjson\t''
tsv\t''
ids\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l tree -d 'Also show each tree position\'s parent and children (to widen or narrow a search)'
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand mesh" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l from -d 'The list\'s form [default: by the file name: .csv, .tsv, .bib, .ris, else pipe lines]' -r -f -a "pipe\t''
csv\t''
tsv\t''
bibtex\t''
ris\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l bib-out -l write-back -d 'BibTeX or RIS: write the list, with the PMID (and PMCID/DOI found) added to each matched entry that lacks them, to this new FILE (never overwritten)' -r -F
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -s f -l format -d 'Output format [default: table on a terminal, tsv in a pipe]' -r -f -a "table\t''
json\t''
ndjson\t''
tsv\t''
ids\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand match" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l id -d 'Only the record on line N of FILE [default: every record, in file order]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -s f -l format -d 'Output format [default: table; markdown with --report]' -r -f -a "table\t''
json\t''
markdown\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l report -d 'Write a PRISMA-S search summary in Markdown (the same as -f markdown)'
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand rerun" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -s f -l format -r -f -a "table\t''
text\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''
abstract\t''
medline\t''
xml\t''
ris\t''
bibtex\t''
csl-json\t''
html\t''
markdown\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -f -a "show" -d 'Print every setting, its value (API key masked) and where it comes from'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -f -a "path" -d 'Print the config file\'s path'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -f -a "set" -d 'Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and not __fish_seen_subcommand_from show path set help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -s f -l format -d 'Output format [default: table on a terminal, text in a pipe]' -r -f -a "text\t''
json\t''
table\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -s f -l format -r -f -a "table\t''
text\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''
abstract\t''
medline\t''
xml\t''
ris\t''
bibtex\t''
csl-json\t''
html\t''
markdown\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -s f -l format -r -f -a "table\t''
text\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''
abstract\t''
medline\t''
xml\t''
ris\t''
bibtex\t''
csl-json\t''
html\t''
markdown\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from set" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print every setting, its value (API key masked) and where it comes from'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "path" -d 'Print the config file\'s path'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "set" -d 'Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)'
complete -c pubmed -n "__fish_pubmed_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -s f -l format -r -f -a "table\t''
text\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''
abstract\t''
medline\t''
xml\t''
ris\t''
bibtex\t''
csl-json\t''
html\t''
markdown\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -f -a "path" -d 'Print the cache database\'s path'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -f -a "stats" -d 'Print entries, bytes and stale entries per kind, the file\'s size and the bound'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -f -a "clear" -d 'Delete every entry (the next runs ask NCBI again)'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and not __fish_seen_subcommand_from path stats clear help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -s f -l format -r -f -a "table\t''
text\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''
abstract\t''
medline\t''
xml\t''
ris\t''
bibtex\t''
csl-json\t''
html\t''
markdown\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -s f -l format -d 'Output format [default: text]' -r -f -a "text\t''
json\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from stats" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -s f -l format -r -f -a "table\t''
text\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''
abstract\t''
medline\t''
xml\t''
ris\t''
bibtex\t''
csl-json\t''
html\t''
markdown\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from clear" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "path" -d 'Print the cache database\'s path'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "stats" -d 'Print entries, bytes and stale entries per kind, the file\'s size and the bound'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "clear" -d 'Delete every entry (the next runs ask NCBI again)'
complete -c pubmed -n "__fish_pubmed_using_subcommand cache; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l http -d 'Serve over MCP streamable HTTP at http://ADDR/mcp instead of stdio [default ADDR: 127.0.0.1:8765]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l token -d 'Bearer token HTTP clients must send; required off loopback [env: PUBMED_MCP_TOKEN]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l allow-origin -d 'Also accept browser requests from ORIGIN, e.g. `https://app.example.org` or `http://host:*` (repeatable; pages on localhost are always accepted)' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -s f -l format -r -f -a "table\t''
text\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''
abstract\t''
medline\t''
xml\t''
ris\t''
bibtex\t''
csl-json\t''
html\t''
markdown\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand mcp" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -s f -l format -r -f -a "table\t''
text\t''
json\t''
ndjson\t''
csv\t''
tsv\t''
ids\t''
abstract\t''
medline\t''
xml\t''
ris\t''
bibtex\t''
csl-json\t''
html\t''
markdown\t''
jats\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l color -d 'Colour: auto (terminal and no NO_COLOR), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l api-key -d 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l email -d 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l tool -d 'Tool name sent to NCBI with every request [default: pubmed-cli]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l eutils-url -d 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l idconv-url -d 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l europepmc-url -d 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l timeout -d 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]' -r
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l cache -d 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]' -r -f -a "on\t''
searches\t''
read\t''
refresh\t''
off\t''"
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -s q -l quiet -d 'No warnings or notes on stderr'
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -s v -l verbose -d 'Log each request on stderr (API key redacted)'
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -l no-progress -d 'No progress bar'
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -s h -l help -d 'Print help'
complete -c pubmed -n "__fish_pubmed_using_subcommand completions" -s V -l version -d 'Print version'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "spell" -d 'Correct the spelling of a PubMed query with ESpell, in place'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "search" -d 'Search PubMed (ESearch + ESummary) and say what PubMed did to the query'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "convert" -d 'Convert between PMID, PMCID and DOI with the PMC ID Converter, one record per input'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "related" -d 'PubMed\'s similar articles, citing articles or references of PMIDs (ELink), one record per input'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "fetch" -d 'Full PubMed records (abstract, authors, MeSH, grants, retractions) with EFetch, one per input PMID'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "cite" -d 'Formatted references (APA, Vancouver, AMA, any CSL style), one per input PMID'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "fulltext" -d 'Open-access full text from PMC (JATS via EFetch db=pmc) as Markdown, text, JSON or JATS, one per input PMID, PMCID or DOI'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "mesh" -d 'Look up MeSH headings (ESearch + ESummary db=mesh): UI, scope note, entry terms, tree numbers, the clause to search'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "match" -d 'Find the PMIDs of references with ECitMatch (journal, year, volume, first page, first author), one record per input'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "rerun" -d 'Run recorded searches (search --record) again: PMIDs added and removed, counts then and now, translation changes; --report writes a PRISMA-S summary'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "config" -d 'Show or change the configuration file (API key, e-mail, URLs, policy knobs)'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "cache" -d 'The local cache of NCBI records: where it is, what it holds, clear it'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "mcp" -d 'Serve the PubMed tools (pubmed_search_articles, pubmed_spell_check, pubmed_convert_ids, pubmed_fetch_articles, pubmed_format_citations, pubmed_find_related, pubmed_fetch_fulltext, pubmed_lookup_mesh, pubmed_lookup_citation) over MCP: stdio, or streamable HTTP with --http'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "completions" -d 'Print a shell completion script'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and not __fish_seen_subcommand_from spell search convert related fetch cite fulltext mesh match rerun config cache mcp completions help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "show" -d 'Print every setting, its value (API key masked) and where it comes from'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "path" -d 'Print the config file\'s path'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "set" -d 'Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and __fish_seen_subcommand_from cache" -f -a "path" -d 'Print the cache database\'s path'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and __fish_seen_subcommand_from cache" -f -a "stats" -d 'Print entries, bytes and stale entries per kind, the file\'s size and the bound'
complete -c pubmed -n "__fish_pubmed_using_subcommand help; and __fish_seen_subcommand_from cache" -f -a "clear" -d 'Delete every entry (the next runs ask NCBI again)'
