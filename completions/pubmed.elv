
use builtin;
use str;

set edit:completion:arg-completer[pubmed] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'pubmed'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'pubmed'= {
            cand -f 'Output format; each command takes its own (see `pubmed help COMMAND`)'
            cand --format 'Output format; each command takes its own (see `pubmed help COMMAND`)'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand spell 'Correct the spelling of a PubMed query with ESpell, in place'
            cand search 'Search PubMed (ESearch + ESummary) and say what PubMed did to the query'
            cand convert 'Convert between PMID, PMCID and DOI with the PMC ID Converter, one record per input'
            cand related 'PubMed''s similar articles, citing articles or references of PMIDs (ELink), one record per input'
            cand fetch 'Full PubMed records (abstract, authors, MeSH, grants, retractions) with EFetch, one per input PMID'
            cand cite 'Formatted references (APA, Vancouver, AMA, any CSL style), one per input PMID'
            cand fulltext 'Open-access full text from PMC (JATS via EFetch db=pmc) as Markdown, text, JSON or JATS, one per input PMID, PMCID or DOI'
            cand mesh 'Look up MeSH headings (ESearch + ESummary db=mesh): UI, scope note, entry terms, tree numbers, the clause to search'
            cand match 'Find the PMIDs of references with ECitMatch (journal, year, volume, first page, first author), one record per input'
            cand config 'Show or change the configuration file (API key, e-mail, URLs, policy knobs)'
            cand cache 'The local cache of NCBI records: where it is, what it holds, clear it'
            cand mcp 'Serve the PubMed tools (pubmed_search_articles, pubmed_spell_check, pubmed_convert_ids, pubmed_fetch_articles, pubmed_format_citations, pubmed_find_related, pubmed_fetch_fulltext, pubmed_lookup_mesh, pubmed_lookup_citation) over MCP: stdio, or streamable HTTP with --http'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pubmed;spell'= {
            cand -f 'Output format [default: table on a terminal, text in a pipe]'
            cand --format 'Output format [default: table on a terminal, text in a pipe]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;search'= {
            cand --field 'Limit untagged terms to one field (tag, long name or EInfo name: ti, title, TITL)'
            cand --spell 'On zero hits, spell-check the query and print the suggestion (=apply: search it)'
            cand --mindate 'Earliest date: YYYY, YYYY/MM or YYYY/MM/DD (also with - or .)'
            cand --maxdate 'Latest date: YYYY, YYYY/MM or YYYY/MM/DD'
            cand --datetype 'Which date the range applies to: publication, Entrez or modification'
            cand --reldate 'Only the last N days (0 = no limit); combined with --mindate/--maxdate'
            cand --author 'Author, e.g. "Smith J"'
            cand --journal 'Journal title or abbreviation'
            cand --pubtype 'Publication type, e.g. Review (repeatable; OR-ed)'
            cand --mesh 'MeSH term (repeatable; AND-ed)'
            cand --language 'Language, e.g. english'
            cand --species 'Only humans or only animals'
            cand --retmax 'Records per page [default: 20; ≤ 1,000 with summaries, ≤ 10,000 IDs; 0 = count only]'
            cand --retstart 'First record, 0-based (PubMed serves records 0–9,998)'
            cand --sort 'Sort order'
            cand --record 'Append a record of this search (query, translation, limits, UTC time, count, PMIDs, SHA-256) to FILE, one JSON line (docs/recorded.md)'
            cand --detail 'Record detail [default: full; ids with -f ids and with --all]'
            cand --output 'With --all: write to FILE instead of stdout, resumable with --resume'
            cand -f 'Output format [default: table on a terminal, ids in a pipe]'
            cand --format 'Output format [default: table on a terminal, ids in a pipe]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand --has-abstract 'Only records with an abstract'
            cand --free-full-text 'Only free full text'
            cand --count 'Print the number of hits only'
            cand --all 'Every PMID of the query, past PubMed''s 9,999-record window, streamed (formats ids, ndjson, csv, tsv; summaries with --detail brief|full)'
            cand --resume 'Continue the run FILE holds: what it has is not asked for again (needs --output)'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;convert'= {
            cand --from 'The type of every input ID [default: detected per ID]'
            cand -i 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand --input 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand --to 'Print only this ID type, one line per input line (implies -f ids)'
            cand --fallback 'Look up IDs the Converter has no record of (not in PMC) in PubMed: a PMID''s DOI, a DOI''s PMID; such records say source "pubmed"'
            cand -f 'Output format [default: table on a terminal, tsv in a pipe; ids with --to]'
            cand --format 'Output format [default: table on a terminal, tsv in a pipe; ids with --to]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;related'= {
            cand -i 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand --input 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand --kind 'similar: PubMed''s similar articles; cited-by: articles citing it; references: articles it cites (both from PubMed''s PMC-based citation links, so counts can be lower than other citation indexes)'
            cand --retmax 'Keep at most N linked PMIDs per input [default: all NCBI returns]'
            cand --detail 'Summaries of the linked articles [default: full with -f table, else ids]'
            cand -f 'Output format [default: table on a terminal, ids in a pipe]'
            cand --format 'Output format [default: table on a terminal, ids in a pipe]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;fetch'= {
            cand -i 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand --input 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand --bib-key 'BibTeX keys: pmid (pmid12091962) or author-year (Smith2020, then Smith2020a, …) [default: pmid]'
            cand --output 'Write to FILE instead of stdout; with -f ndjson, resumable with --resume'
            cand -f 'Output format [default: abstract on a terminal, ndjson in a pipe]'
            cand --format 'Output format [default: abstract on a terminal, ndjson in a pipe]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand --bib-unicode 'BibTeX: keep non-ASCII letters as UTF-8 (biblatex + biber) instead of LaTeX commands'
            cand --resume 'Continue the run FILE holds: PMIDs it has are not fetched again (needs --output, -f ndjson)'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;cite'= {
            cand -i 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand --input 'Read PMIDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand -s 'Citation style: apa, vancouver, ama, nlm, harvard, chicago-author-date, ieee, nature, any bundled style name, or a .csl file [default: vancouver]'
            cand --style 'Citation style: apa, vancouver, ama, nlm, harvard, chicago-author-date, ieee, nature, any bundled style name, or a .csl file [default: vancouver]'
            cand -f 'Output format [default: text]'
            cand --format 'Output format [default: text]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand --list-styles 'Print the style names and exit'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;fulltext'= {
            cand -i 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand --input 'Read IDs from FILE, one per line (`-` = stdin; blank and # lines skipped)'
            cand --section 'Only these sections: a sec-type (methods, results, …) or words of a title, comma-separated'
            cand -f 'Output format [default: markdown]'
            cand --format 'Output format [default: markdown]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;mesh'= {
            cand --max 'Records to show (1 to 20)'
            cand -f 'Output format [default: table on a terminal, tsv in a pipe]'
            cand --format 'Output format [default: table on a terminal, tsv in a pipe]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand --tree 'Also show each tree position''s parent and children (to widen or narrow a search)'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;match'= {
            cand --from 'The list''s form [default: by the file name: .csv, .tsv, else pipe lines]'
            cand --bib-out 'BibTeX only: write the file, with `pmid = {…}` added to each matched entry, to this new FILE (never overwritten)'
            cand -f 'Output format [default: table on a terminal, tsv in a pipe]'
            cand --format 'Output format [default: table on a terminal, tsv in a pipe]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;config'= {
            cand -f 'f'
            cand --format 'format'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand show 'Print every setting, its value (API key masked) and where it comes from'
            cand path 'Print the config file''s path'
            cand set 'Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pubmed;config;show'= {
            cand -f 'Output format [default: table on a terminal, text in a pipe]'
            cand --format 'Output format [default: table on a terminal, text in a pipe]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;config;path'= {
            cand -f 'f'
            cand --format 'format'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;config;set'= {
            cand -f 'f'
            cand --format 'format'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;config;help'= {
            cand show 'Print every setting, its value (API key masked) and where it comes from'
            cand path 'Print the config file''s path'
            cand set 'Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pubmed;config;help;show'= {
        }
        &'pubmed;config;help;path'= {
        }
        &'pubmed;config;help;set'= {
        }
        &'pubmed;config;help;help'= {
        }
        &'pubmed;cache'= {
            cand -f 'f'
            cand --format 'format'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
            cand path 'Print the cache database''s path'
            cand stats 'Print entries, bytes and stale entries per kind, the file''s size and the bound'
            cand clear 'Delete every entry (the next runs ask NCBI again)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pubmed;cache;path'= {
            cand -f 'f'
            cand --format 'format'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;cache;stats'= {
            cand -f 'Output format [default: text]'
            cand --format 'Output format [default: text]'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;cache;clear'= {
            cand -f 'f'
            cand --format 'format'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;cache;help'= {
            cand path 'Print the cache database''s path'
            cand stats 'Print entries, bytes and stale entries per kind, the file''s size and the bound'
            cand clear 'Delete every entry (the next runs ask NCBI again)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pubmed;cache;help;path'= {
        }
        &'pubmed;cache;help;stats'= {
        }
        &'pubmed;cache;help;clear'= {
        }
        &'pubmed;cache;help;help'= {
        }
        &'pubmed;mcp'= {
            cand --http 'Serve over MCP streamable HTTP at http://ADDR/mcp instead of stdio [default ADDR: 127.0.0.1:8765]'
            cand --token 'Bearer token HTTP clients must send; required off loopback [env: PUBMED_MCP_TOKEN]'
            cand --allow-origin 'Also accept browser requests from ORIGIN, e.g. `https://app.example.org` or `http://host:*` (repeatable; pages on localhost are always accepted)'
            cand -f 'f'
            cand --format 'format'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;completions'= {
            cand -f 'f'
            cand --format 'format'
            cand --color 'Colour: auto (terminal and no NO_COLOR), always, never'
            cand --api-key 'NCBI API key: 10 requests per second instead of 3 (visible in the process list; prefer the environment or the config file) [env: NCBI_API_KEY]'
            cand --email 'Contact e-mail sent to NCBI with every request [env: NCBI_EMAIL]'
            cand --tool 'Tool name sent to NCBI with every request [default: pubmed-cli]'
            cand --eutils-url 'E-utilities base URL, e.g. a mirror, a proxy or a test server [env: PUBMED_EUTILS_URL; default: https://eutils.ncbi.nlm.nih.gov/entrez/eutils/]'
            cand --idconv-url 'PMC ID Converter URL [env: PUBMED_IDCONV_URL; default: https://pmc.ncbi.nlm.nih.gov/tools/idconv/api/v1/articles/]'
            cand --timeout 'Deadline of one NCBI call in seconds, retries included [env: PUBMED_DEADLINE_S; default: 60]'
            cand --cache 'Local cache: on (read and store), read, refresh (store only), off [env: PUBMED_CACHE; default: on]'
            cand -q 'No warnings or notes on stderr'
            cand --quiet 'No warnings or notes on stderr'
            cand -v 'Log each request on stderr (API key redacted)'
            cand --verbose 'Log each request on stderr (API key redacted)'
            cand --no-progress 'No progress bar'
            cand -h 'Print help'
            cand --help 'Print help'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'pubmed;help'= {
            cand spell 'Correct the spelling of a PubMed query with ESpell, in place'
            cand search 'Search PubMed (ESearch + ESummary) and say what PubMed did to the query'
            cand convert 'Convert between PMID, PMCID and DOI with the PMC ID Converter, one record per input'
            cand related 'PubMed''s similar articles, citing articles or references of PMIDs (ELink), one record per input'
            cand fetch 'Full PubMed records (abstract, authors, MeSH, grants, retractions) with EFetch, one per input PMID'
            cand cite 'Formatted references (APA, Vancouver, AMA, any CSL style), one per input PMID'
            cand fulltext 'Open-access full text from PMC (JATS via EFetch db=pmc) as Markdown, text, JSON or JATS, one per input PMID, PMCID or DOI'
            cand mesh 'Look up MeSH headings (ESearch + ESummary db=mesh): UI, scope note, entry terms, tree numbers, the clause to search'
            cand match 'Find the PMIDs of references with ECitMatch (journal, year, volume, first page, first author), one record per input'
            cand config 'Show or change the configuration file (API key, e-mail, URLs, policy knobs)'
            cand cache 'The local cache of NCBI records: where it is, what it holds, clear it'
            cand mcp 'Serve the PubMed tools (pubmed_search_articles, pubmed_spell_check, pubmed_convert_ids, pubmed_fetch_articles, pubmed_format_citations, pubmed_find_related, pubmed_fetch_fulltext, pubmed_lookup_mesh, pubmed_lookup_citation) over MCP: stdio, or streamable HTTP with --http'
            cand completions 'Print a shell completion script'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'pubmed;help;spell'= {
        }
        &'pubmed;help;search'= {
        }
        &'pubmed;help;convert'= {
        }
        &'pubmed;help;related'= {
        }
        &'pubmed;help;fetch'= {
        }
        &'pubmed;help;cite'= {
        }
        &'pubmed;help;fulltext'= {
        }
        &'pubmed;help;mesh'= {
        }
        &'pubmed;help;match'= {
        }
        &'pubmed;help;config'= {
            cand show 'Print every setting, its value (API key masked) and where it comes from'
            cand path 'Print the config file''s path'
            cand set 'Set KEY to VALUE in the config file (VALUE `-` reads stdin; empty unsets)'
        }
        &'pubmed;help;config;show'= {
        }
        &'pubmed;help;config;path'= {
        }
        &'pubmed;help;config;set'= {
        }
        &'pubmed;help;cache'= {
            cand path 'Print the cache database''s path'
            cand stats 'Print entries, bytes and stale entries per kind, the file''s size and the bound'
            cand clear 'Delete every entry (the next runs ask NCBI again)'
        }
        &'pubmed;help;cache;path'= {
        }
        &'pubmed;help;cache;stats'= {
        }
        &'pubmed;help;cache;clear'= {
        }
        &'pubmed;help;mcp'= {
        }
        &'pubmed;help;completions'= {
        }
        &'pubmed;help;help'= {
        }
    ]
    $completions[$command]
}
