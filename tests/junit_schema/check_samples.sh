#!/usr/bin/env bash
# Validate every sample in samples/ against junit-10.xsd with xmllint:
#   valid_*.xml   must validate,
#   invalid_*.xml must be rejected.
# Prints one line per sample and exits non-zero if any sample gives the
# wrong answer (or if there are no samples / xmllint is missing).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
schema="${here}/junit-10.xsd"
samples="${here}/samples"

if ! command -v xmllint >/dev/null 2>&1; then
    echo "ERROR: xmllint not found (install libxml2-utils)" >&2
    exit 2
fi

shopt -s nullglob
files=("${samples}"/valid_*.xml "${samples}"/invalid_*.xml)
if [ "${#files[@]}" -eq 0 ]; then
    echo "ERROR: no samples in ${samples}" >&2
    exit 2
fi

bad=0
for f in "${files[@]}"; do
    name="$(basename "$f")"
    case "$name" in
        valid_*) expect=pass ;;
        *)       expect=fail ;;
    esac

    rc=0
    out="$(xmllint --noout --schema "$schema" "$f" 2>&1)" || rc=$?
    if [ "$rc" -eq 0 ]; then got=pass; else got=fail; fi

    # First schema error message, for the log (empty when it validates).
    reason="$(printf '%s\n' "$out" | grep -v ' validates$' | head -n 1 || true)"
    reason="${reason#"$f":}"

    if [ "$got" = "$expect" ]; then
        status=OK
    else
        status=WRONG
        bad=$((bad + 1))
    fi
    if [ "$got" = fail ]; then
        printf '%-5s %-42s expected=%s got=%s (xmllint rc=%d, line %s)\n' \
            "$status" "$name" "$expect" "$got" "$rc" "$reason"
    else
        printf '%-5s %-42s expected=%s got=%s\n' "$status" "$name" "$expect" "$got"
    fi
done

if [ "$bad" -ne 0 ]; then
    echo "FAILED: ${bad} of ${#files[@]} samples gave the wrong answer"
    exit 1
fi
echo "PASSED: all ${#files[@]} samples gave the expected answer"
