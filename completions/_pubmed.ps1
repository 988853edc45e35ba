
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'pubmed' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'pubmed'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'pubmed' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format; each command takes its own (see `pubmed help COMMAND`)')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format; each command takes its own (see `pubmed help COMMAND`)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('spell', 'spell', [CompletionResultType]::ParameterValue, 'Correct the spelling of a PubMed query with ESpell, in place')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search PubMed (ESearch + ESummary) and say what PubMed did to the query')
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert between PMID, PMCID and DOI with the PMC ID Converter, one record per input')
            [CompletionResult]::new('related', 'related', [CompletionResultType]::ParameterValue, 'PubMed''s similar articles, citing articles or references of PMIDs (ELink), one record per input')
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Full PubMed records (abstract, authors, MeSH, grants, retractions) with EFetch, one per input PMID')
            [CompletionResult]::new('cite', 'cite', [CompletionResultType]::ParameterValue, 'Formatted references (APA, Vancouver, AMA, any CSL style), one per input PMID')
            [CompletionResult]::new('fulltext', 'fulltext', [CompletionResultType]::ParameterValue, 'Open-access full text from PMC (JATS via EFetch db=pmc) as Markdown, text, JSON or JATS, one per input PMID, PMCID or DOI')
            [CompletionResult]::new('mesh', 'mesh', [CompletionResultType]::ParameterValue, 'Look up MeSH headings (ESearch + ESummary db=mesh): UI, scope note, entry terms, tree numbers, the clause to search')
            [CompletionResult]::new('match', 'match', [CompletionResultType]::ParameterValue, 'Find the PMIDs of references with ECitMatch (journal, year, volume, first page, first author), one record per input')
            [CompletionResult]::new('rerun', 'rerun', [CompletionResultType]::ParameterValue, 'Run recorded searches (search --record) again: PMIDs added and removed, counts then and now, translation changes; --report writes a PRISMA-S summary')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show or change the configuration file (API key, e-mail, URLs, policy knobs)')
            [CompletionResult]::new('cache', 'cache', [CompletionResultType]::ParameterValue, 'The local cache of NCBI records: where it is, what it holds, clear it')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the PubMed tools (pubmed_search_articles, pubmed_spell_check, pubmed_convert_ids, pubmed_fetch_articles, pubmed_format_citations, pubmed_find_related, pubmed_fetch_fulltext, pubmed_lookup_mesh, pubmed_lookup_citation) over MCP: stdio, or streamable HTTP with --http')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pubmed;spell' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, text in a pipe]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, text in a pipe]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;search' {
            [CompletionResult]::new('--field', '--field', [CompletionResultType]::ParameterName, 'Limit untagged terms to one field (tag, long name or EInfo name: ti, title, TITL)')
            [CompletionResult]::new('--spell', '--spell', [CompletionResultType]::ParameterName, 'On zero hits, spell-check the query and print the suggestion (=apply: search it)')
            [CompletionResult]::new('--mindate', '--mindate', [CompletionResultType]::ParameterName, 'Earliest date: YYYY, YYYY/MM or YYYY/MM/DD (also with - or .)')
            [CompletionResult]::new('--maxdate', '--maxdate', [CompletionResultType]::ParameterName, 'Latest date: YYYY, YYYY/MM or YYYY/MM/DD')
            [CompletionResult]::new('--datetype', '--datetype', [CompletionResultType]::ParameterName, 'Which date the range applies to: publication, Entrez or modification')
            [CompletionResult]::new('--reldate', '--reldate', [CompletionResultType]::ParameterName, 'Only the last N days (0 = no limit); combined with --mindate/--maxdate')
            [CompletionResult]::new('--author', '--author', [CompletionResultType]::ParameterName, 'Author, e.g. "Smith J"')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'Journal title or abbreviation')
            [CompletionResult]::new('--pubtype', '--pubtype', [CompletionResultType]::ParameterName, 'Publication type, e.g. Review (repeatable; OR-ed)')
            [CompletionResult]::new('--mesh', '--mesh', [CompletionResultType]::ParameterName, 'MeSH term (repeatable; AND-ed)')
            [CompletionResult]::new('--language', '--language', [CompletionResultType]::ParameterName, 'Language, e.g. english')
            [CompletionResult]::new('--species', '--species', [CompletionResultType]::ParameterName, 'Only humans or only animals')
            [CompletionResult]::new('--retmax', '--retmax', [CompletionResultType]::ParameterName, 'Records per page [default: 20; ≤ 1,000 with summaries, ≤ 10,000 IDs; 0 = count only]')
            [CompletionResult]::new('--retstart', '--retstart', [CompletionResultType]::ParameterName, 'First record, 0-based (PubMed serves records 0–9,998)')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Sort order')
            [CompletionResult]::new('--record', '--record', [CompletionResultType]::ParameterName, 'Append a record of this search (query, translation, limits, UTC time, count, PMIDs, SHA-256) to FILE, one JSON line (docs/recorded.md)')
            [CompletionResult]::new('--detail', '--detail', [CompletionResultType]::ParameterName, 'Record detail [default: full; ids with -f ids and with --all]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'With --all: write to FILE instead of stdout, resumable with --resume')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, ids in a pipe]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, ids in a pipe]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('--has-abstract', '--has-abstract', [CompletionResultType]::ParameterName, 'Only records with an abstract')
            [CompletionResult]::new('--free-full-text', '--free-full-text', [CompletionResultType]::ParameterName, 'Only free full text')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Print the number of hits only')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every PMID of the query, past PubMed''s 9,999-record window, streamed (formats ids, ndjson, csv, tsv; summaries with --detail brief|full)')
            [CompletionResult]::new('--resume', '--resume', [CompletionResultType]::ParameterName, 'Continue the run FILE holds: what it has is not asked for again (needs --output)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;convert' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The type of every input ID [default: detected per ID]')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('--to', '--to', [CompletionResultType]::ParameterName, 'Print only this ID type, one line per input line (implies -f ids)')
            [CompletionResult]::new('--fallback', '--fallback', [CompletionResultType]::ParameterName, 'Look up IDs the Converter has no record of (not in PMC) in PubMed: a PMID''s DOI, a DOI''s PMID; such records say source "pubmed"')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, tsv in a pipe; ids with --to]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, tsv in a pipe; ids with --to]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;related' {
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'similar: PubMed''s similar articles; cited-by: articles citing it; references: articles it cites (both from PubMed''s PMC-based citation links, so counts can be lower than other citation indexes)')
            [CompletionResult]::new('--retmax', '--retmax', [CompletionResultType]::ParameterName, 'Keep at most N linked PMIDs per input [default: all NCBI returns]')
            [CompletionResult]::new('--detail', '--detail', [CompletionResultType]::ParameterName, 'Summaries of the linked articles [default: full with -f table, else ids]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, ids in a pipe]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, ids in a pipe]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;fetch' {
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('--bib-key', '--bib-key', [CompletionResultType]::ParameterName, 'BibTeX keys: pmid (pmid12091962) or author-year (Smith2020, then Smith2020a, …) [default: pmid]')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to FILE instead of stdout; with -f ndjson, resumable with --resume')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: abstract on a terminal, ndjson in a pipe]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: abstract on a terminal, ndjson in a pipe]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('--bib-unicode', '--bib-unicode', [CompletionResultType]::ParameterName, 'BibTeX: keep non-ASCII letters as UTF-8 (biblatex + biber) instead of LaTeX commands')
            [CompletionResult]::new('--resume', '--resume', [CompletionResultType]::ParameterName, 'Continue the run FILE holds: PMIDs it has are not fetched again (needs --output, -f ndjson)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;cite' {
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Citation style: apa, vancouver, ama, nlm, harvard, chicago-author-date, ieee, nature, any bundled style name, or a .csl file [default: vancouver]')
            [CompletionResult]::new('--style', '--style', [CompletionResultType]::ParameterName, 'Citation style: apa, vancouver, ama, nlm, harvard, chicago-author-date, ieee, nature, any bundled style name, or a .csl file [default: vancouver]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: text]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: text]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('--list-styles', '--list-styles', [CompletionResultType]::ParameterName, 'Print the style names and exit')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;fulltext' {
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('--input', '--input', [CompletionResultType]::ParameterName, 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)')
            [CompletionResult]::new('--section', '--section', [CompletionResultType]::ParameterName, 'Only these sections: a sec-type (methods, results, …) or words of a title, comma-separated')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Write to FILE instead of stdout; with -f ndjson, resumable with --resume')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: markdown]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: markdown]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('--resume', '--resume', [CompletionResultType]::ParameterName, 'Continue the run FILE holds: IDs it has are not asked again (needs --output, -f ndjson)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;mesh' {
            [CompletionResult]::new('--max', '--max', [CompletionResultType]::ParameterName, 'Records to show (1 to 20)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, tsv in a pipe]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, tsv in a pipe]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('--tree', '--tree', [CompletionResultType]::ParameterName, 'Also show each tree position''s parent and children (to widen or narrow a search)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;match' {
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'The list''s form [default: by the file name: .csv, .tsv, .bib, .ris, else pipe lines]')
            [CompletionResult]::new('--bib-out', '--bib-out', [CompletionResultType]::ParameterName, 'BibTeX or RIS: write the list, with the PMID (and PMCID/DOI found) added to each matched entry that lacks them, to this new FILE (never overwritten)')
            [CompletionResult]::new('--write-back', '--write-back', [CompletionResultType]::ParameterName, 'BibTeX or RIS: write the list, with the PMID (and PMCID/DOI found) added to each matched entry that lacks them, to this new FILE (never overwritten)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, tsv in a pipe]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, tsv in a pipe]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;rerun' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'Only the record on line N of FILE [default: every record, in file order]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: table; markdown with --report]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: table; markdown with --report]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('--report', '--report', [CompletionResultType]::ParameterName, 'Write a PRISMA-S search summary in Markdown (the same as -f markdown)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;config' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'f')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting, its value (API key masked) and where it comes from')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the config file''s path')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pubmed;config;show' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, text in a pipe]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: table on a terminal, text in a pipe]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;config;path' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'f')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;config;set' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'f')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;config;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting, its value (API key masked) and where it comes from')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the config file''s path')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pubmed;config;help;show' {
            break
        }
        'pubmed;config;help;path' {
            break
        }
        'pubmed;config;help;set' {
            break
        }
        'pubmed;config;help;help' {
            break
        }
        'pubmed;cache' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'f')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the cache database''s path')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Print entries, bytes and stale entries per kind, the file''s size and the bound')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Delete every entry (the next runs ask NCBI again)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pubmed;cache;path' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'f')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;cache;stats' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: text]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: text]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;cache;clear' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'f')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;cache;help' {
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the cache database''s path')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Print entries, bytes and stale entries per kind, the file''s size and the bound')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Delete every entry (the next runs ask NCBI again)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pubmed;cache;help;path' {
            break
        }
        'pubmed;cache;help;stats' {
            break
        }
        'pubmed;cache;help;clear' {
            break
        }
        'pubmed;cache;help;help' {
            break
        }
        'pubmed;mcp' {
            [CompletionResult]::new('--http', '--http', [CompletionResultType]::ParameterName, 'Serve over MCP streamable HTTP at http://ADDR/mcp instead of stdio [default ADDR: 127.0.0.1:8765]')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token HTTP clients must send; required off loopback [env: PUBMED_MCP_TOKEN]')
            [CompletionResult]::new('--allow-origin', '--allow-origin', [CompletionResultType]::ParameterName, 'Also accept browser requests from ORIGIN, e.g. `https://app.example.org` or `http://host:*` (repeatable; pages on localhost are always accepted)')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'f')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;completions' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'f')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'Colour: auto (terminal and no NO_COLOR), always, never')
            [CompletionResult]::new('--api-key', '--api-key', [CompletionResultType]::ParameterName, 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]')
            [CompletionResult]::new('--email', '--email', [CompletionResultType]::ParameterName, 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Tool name sent to NCBI with every request [default: pubmed-cli]')
            [CompletionResult]::new('--eutils-url', '--eutils-url', [CompletionResultType]::ParameterName, 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]')
            [CompletionResult]::new('--idconv-url', '--idconv-url', [CompletionResultType]::ParameterName, 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]')
            [CompletionResult]::new('--europepmc-url', '--europepmc-url', [CompletionResultType]::ParameterName, 'Europe PMC REST base URL, asked by fulltext when PMC has no open text [env: PUBMED_EUROPEPMC_URL; default: https://www.ebi.ac.uk/europepmc/webservices/rest/]')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]')
            [CompletionResult]::new('--cache', '--cache', [CompletionResultType]::ParameterName, 'Local cache: on (read and store), searches (on, and reuse ESearch answers), read, refresh (store only), off [env: PUBMED_CACHE; default: on]')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'No warnings or notes on stderr')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Log each request on stderr (API key redacted)')
            [CompletionResult]::new('--no-progress', '--no-progress', [CompletionResultType]::ParameterName, 'No progress bar')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'pubmed;help' {
            [CompletionResult]::new('spell', 'spell', [CompletionResultType]::ParameterValue, 'Correct the spelling of a PubMed query with ESpell, in place')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search PubMed (ESearch + ESummary) and say what PubMed did to the query')
            [CompletionResult]::new('convert', 'convert', [CompletionResultType]::ParameterValue, 'Convert between PMID, PMCID and DOI with the PMC ID Converter, one record per input')
            [CompletionResult]::new('related', 'related', [CompletionResultType]::ParameterValue, 'PubMed''s similar articles, citing articles or references of PMIDs (ELink), one record per input')
            [CompletionResult]::new('fetch', 'fetch', [CompletionResultType]::ParameterValue, 'Full PubMed records (abstract, authors, MeSH, grants, retractions) with EFetch, one per input PMID')
            [CompletionResult]::new('cite', 'cite', [CompletionResultType]::ParameterValue, 'Formatted references (APA, Vancouver, AMA, any CSL style), one per input PMID')
            [CompletionResult]::new('fulltext', 'fulltext', [CompletionResultType]::ParameterValue, 'Open-access full text from PMC (JATS via EFetch db=pmc) as Markdown, text, JSON or JATS, one per input PMID, PMCID or DOI')
            [CompletionResult]::new('mesh', 'mesh', [CompletionResultType]::ParameterValue, 'Look up MeSH headings (ESearch + ESummary db=mesh): UI, scope note, entry terms, tree numbers, the clause to search')
            [CompletionResult]::new('match', 'match', [CompletionResultType]::ParameterValue, 'Find the PMIDs of references with ECitMatch (journal, year, volume, first page, first author), one record per input')
            [CompletionResult]::new('rerun', 'rerun', [CompletionResultType]::ParameterValue, 'Run recorded searches (search --record) again: PMIDs added and removed, counts then and now, translation changes; --report writes a PRISMA-S summary')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Show or change the configuration file (API key, e-mail, URLs, policy knobs)')
            [CompletionResult]::new('cache', 'cache', [CompletionResultType]::ParameterValue, 'The local cache of NCBI records: where it is, what it holds, clear it')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the PubMed tools (pubmed_search_articles, pubmed_spell_check, pubmed_convert_ids, pubmed_fetch_articles, pubmed_format_citations, pubmed_find_related, pubmed_fetch_fulltext, pubmed_lookup_mesh, pubmed_lookup_citation) over MCP: stdio, or streamable HTTP with --http')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'pubmed;help;spell' {
            break
        }
        'pubmed;help;search' {
            break
        }
        'pubmed;help;convert' {
            break
        }
        'pubmed;help;related' {
            break
        }
        'pubmed;help;fetch' {
            break
        }
        'pubmed;help;cite' {
            break
        }
        'pubmed;help;fulltext' {
            break
        }
        'pubmed;help;mesh' {
            break
        }
        'pubmed;help;match' {
            break
        }
        'pubmed;help;rerun' {
            break
        }
        'pubmed;help;config' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting, its value (API key masked) and where it comes from')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the config file''s path')
            [CompletionResult]::new('set', 'set', [CompletionResultType]::ParameterValue, 'Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)')
            break
        }
        'pubmed;help;config;show' {
            break
        }
        'pubmed;help;config;path' {
            break
        }
        'pubmed;help;config;set' {
            break
        }
        'pubmed;help;cache' {
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print the cache database''s path')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Print entries, bytes and stale entries per kind, the file''s size and the bound')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Delete every entry (the next runs ask NCBI again)')
            break
        }
        'pubmed;help;cache;path' {
            break
        }
        'pubmed;help;cache;stats' {
            break
        }
        'pubmed;help;cache;clear' {
            break
        }
        'pubmed;help;mcp' {
            break
        }
        'pubmed;help;completions' {
            break
        }
        'pubmed;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
