"""Every bound the server enforces, named as the spec names it."""

# Syntax core
MAX_SOURCE_BYTES = 256 * 1024
MAX_SYNTAX_TOKENS = 32 * 1024
MAX_SYNTAX_NESTING = 128
MAX_SYNTAX_DIAGNOSTICS = 32
# Hex digits of a braced unicode escape `\u{...}` (the spec: one to six).
MAX_BRACED_ESCAPE_DIGITS = 6
# Python frames the parser's deepest recursion takes per nesting level (a
# lambda or call argument takes 19: expression, assignment, six precedence
# levels of two frames each, unary, postfix, primary/call, lambda/list,
# body), with margin; and frames kept free above the deepest parse.
PARSER_FRAMES_PER_NESTING_LEVEL = 24
PARSER_SPARE_FRAMES = 200
# Characters compared at once while the lexer looks for where two versions
# of a text differ (one slice comparison in C per block).
TEXT_COMPARED_BLOCK_CHARS = 4096
# Catalog advice per document (analysis/advice.py), bounded like the syntax ones.
MAX_ADVISORY_DIAGNOSTICS = 64
MAX_FORMATTED_SOURCE_BYTES = 4 * MAX_SOURCE_BYTES

# Server
MAX_OPEN_DOCUMENTS = 128
# Transport: the largest message read (header block and body). The largest
# legitimate one is a didChangeConfiguration with three 512 KiB catalogs or a
# 256 KiB document with every character JSON-escaped (6x): a few MiB.
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
MAX_HEADER_LINE_BYTES = 1024
MAX_HEADER_LINES = 32
# Messages read ahead of the one being handled: the reader waits beyond this
# (a single larger message is still read, alone).
MAX_QUEUED_INPUT_BYTES = 1024 * 1024
# Reads (and discards of a refused body) take at most this much at a time.
READ_CHUNK_BYTES = 64 * 1024
# How much of a refused body is scanned for its request id.
ID_SCAN_BYTES = 4 * 1024
# A Content-Length value longer than this is refused unparsed.
MAX_CONTENT_LENGTH_DIGITS = 20
# Deeper JSON values in a message are cut off (Python's json would recurse).
MAX_MESSAGE_NESTING = 128
# Text sync: LSP positions are uintegers; a synced text never grows past
# what one full-text change could carry.
MAX_POSITION_VALUE = 2**31 - 1
MAX_SYNCED_TEXT_CHARS = MAX_MESSAGE_BYTES
MAX_SELECTION_RANGE_DEPTH = 64  # levels of one selectionRange answer

# Lexical index
MAX_LEXICAL_SYMBOL_OCCURRENCES = 4_096
MAX_LEXICAL_COMPLETION_SITES = 4_096
MAX_SIGNATURE_HEADER_BYTES = 64 * 1024
MAX_SIGNATURE_PARAMETERS = 64
MAX_SIGNATURE_DELIMITER_DEPTH = 128
MAX_SIGNATURE_ARGUMENTS = 64

# Static record shapes
MAX_STATIC_RECORD_SHAPES = 1_024
MAX_STATIC_RECORD_FIELDS = 4_096
MAX_STATIC_RECORD_ALIASES = 1_024
MAX_STATIC_RECORD_LITERAL_CHILD_DEPTH = 2
MAX_ALIAS_HOPS = 16
# Longest `let r = recv.m(x)` initializer read as a call result (the reference
# counts bytes), and the bracket depth inside its argument.
MAX_OUTPUT_INITIALIZER_CHARS = 64 * 1024
MAX_OUTPUT_CALL_DEPTH = 128

# Tool-call review
MAX_TOOL_CALL_HINTS = 1_024
MAX_IMPORTED_MODULE_CALL_HINTS = 1_024
MAX_IMPORTED_MODULE_ALIAS_DEPTH = 16
MAX_MODULE_IMPORTS = 1_024

# Tool catalog
MAX_TOOL_CATALOG_ENTRIES = 128
MAX_TOOL_CATALOG_BYTES = 512 * 1024
MAX_TOOL_NAME_BYTES = 128
MAX_TOOL_DESCRIPTION_BYTES = 4 * 1024

# Module catalog
MAX_MODULE_CATALOG_DESCRIPTORS = 256
MAX_MODULE_CATALOG_BYTES = 512 * 1024
MAX_MODULE_PATH_BYTES = 256
MAX_MODULE_PATH_SEGMENTS = 16
MAX_MODULE_INPUT_FIELDS = 1_024
MAX_MODULE_OUTPUT_FIELDS = 1_024

# Workflow data catalog
MAX_WORKFLOW_OUTPUTS = 128
MAX_WORKFLOW_FIELDS = 1_024
MAX_WORKFLOW_CATALOG_BYTES = 512 * 1024
MAX_WORKFLOW_NAME_BYTES = 128

# Catalog search
MAX_SEARCH_HITS = 16
MAX_SEARCH_RESULT_BYTES = 8 * 1024
MAX_SEARCH_QUERY_BYTES = 256
MAX_SEARCH_SUMMARY_CHARS = 160

# Catalog descriptor details (appended by the catalogs layer)
MAX_MODULE_DESCRIPTION_BYTES = 4 * 1024
MAX_MODULE_FIELD_NAME_BYTES = 128
MAX_MODULE_FIELD_DESCRIPTION_BYTES = 4 * 1024
MAX_MODULE_FIELD_CHILD_DEPTH = 1
MAX_WORKFLOW_FIELD_DESCRIPTION_BYTES = 4 * 1024

# Server memory: full analyses kept at once (least recently used dropped;
# rebuilt on demand). Small per-version answers are kept for every document.
MAX_CACHED_ANALYSES = 8
# Runs of carried-over top-level statements a per-statement memo remembers
# across versions that did not use it (each edit splits a run in two).
MAX_STEP_MAP_RUNS = 64
# Stretches of earlier versions' tokens, tree or scope events one version's
# lazily moved sequences reference (syntax/moved.py); each edit at a new
# place adds two, and past this the smallest is made for good.
MAX_MOVED_PIECES = 16
MAX_WORKSPACE_SYMBOLS = 256
# Inlay hints name the arguments of calls with at least this many parameters.
MIN_NAMED_PARAMETERS = 2

# Did-you-mean suggestions (catalogs/suggest.py): at most this many, and never
# farther than this edit distance whatever the name's length.
MAX_SUGGESTIONS = 3
MAX_SUGGESTION_DISTANCE = 3
# Catalog files named by the `catalogFiles` setting (catalogs/files.py), and
# the command line's `--settings` / `catalog check` file: at most this many,
# each at most this size (the projections' retained budgets with room for the
# fields the parsers ignore).
MAX_CATALOG_FILES = 16
MAX_CATALOG_FILE_BYTES = 1024 * 1024
# An unknown key quoted in a catalog file's problem: longer ones are cut.
MAX_QUOTED_KEY_CHARS = 64
# An unusable Content-Length value quoted in the log: longer ones are cut.
MAX_QUOTED_HEADER_CHARS = 32

# Non-negative integers whose decimal text JSON-text answers take from a
# table (`features.wire`): the deltas and lengths of semantic tokens.
CACHED_DECIMAL_INTEGERS = 4096

# Command line (`octoscript check` / `format --jobs`)
# Files handed to a worker process at a time (one batch, folded into one
# result): large enough that the pool's messages cost little beside the
# work, small enough to keep both cores busy to the end.
CLI_FILES_PER_TASK = 32
# Fewer files are cut into smaller batches, at least this many per worker.
CLI_BATCHES_PER_WORKER = 4
# Fewer files than this are checked in the one process: starting workers
# costs more than it saves.
CLI_MIN_FILES_FOR_JOBS = 16
MAX_CLI_JOBS = 256
# A project configuration file (pyproject.toml / octoscript.toml) read by the CLI.
MAX_CONFIG_FILE_BYTES = 1024 * 1024
# A `.gitignore` / `.ignore` file read while walking a folder: a larger one is
# skipped with a warning.
MAX_IGNORE_FILE_BYTES = 1024 * 1024
# `--fix` rounds per file (and per fix-all action): a fix can make another one
# possible (or needed).
MAX_FIX_ROUNDS = 8
# `octoscript.showToolCall`'s label (a tool name, a module path or a digest: never
# longer than a module path).
MAX_LENS_LABEL_CHARS = MAX_MODULE_PATH_BYTES

# Language reference (`octoscript_lsp/reference/`, served by `octoscript mcp`):
# the most one section gives; a longer one is cut at a line and says so. The
# grammar, the longest section, fits with room to spare.
MAX_REFERENCE_SECTION_BYTES = 16 * 1024

# MCP server (`octoscript mcp`, octoscript_lsp/mcp/). Search takes the catalog
# search bounds above; source takes MAX_SOURCE_BYTES; did-you-mean MAX_SUGGESTIONS.
# `describe_tools`: at most this many ids a call, each at most a module
# path's bytes (a tool name is shorter), and at most this much compact JSON
# for the entries of one answer (eight entries with their 4 KiB
# descriptions always fit without their fields).
MAX_DESCRIBE_IDS = 8
MAX_DESCRIBE_ID_BYTES = MAX_MODULE_PATH_BYTES
MAX_DESCRIBE_RESULT_BYTES = 64 * 1024
# Input and output fields (children included) one described member shows.
MAX_DESCRIBED_FIELDS = 128
# `check_script`'s `path`: a name for the answer, never opened.
MAX_SCRIPT_PATH_BYTES = 1024
# `language_reference`'s `section` argument.
MAX_SECTION_NAME_BYTES = 64
