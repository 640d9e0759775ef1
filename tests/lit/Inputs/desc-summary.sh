#!/usr/bin/env bash
# desc-summary.sh <file>: from HETERO_DESC_DEBUG output (every compile of a
# source: host, x86_64, NVPTX), one line per distinct descriptor head, the
# "hetero-desc <kernel>:" line and the two after it joined by tabs. When the
# compiles agree, each kernel gives exactly one line.
set -euo pipefail
grep -A2 '^hetero-desc' "$1" | grep -v '^--' | paste - - - | sort -u
