#!/usr/bin/env bash
# ctest's registration (mlregress_discover_tests) and the binary's own listing must agree:
# `ctest -N -L TIER` lists exactly the tests `list --format json --tier TIER` reports.
set -euo pipefail
binary=${1:?usage: $0 BINARY BUILD_DIR TIER}
build_dir=${2:?usage: $0 BINARY BUILD_DIR TIER}
tier=${3:?usage: $0 BINARY BUILD_DIR TIER}

from_binary=$("$binary" list --format json --tier "$tier" |
  python3 -c 'import json,sys; print("\n".join(t["full_name"] for t in json.load(sys.stdin)["tests"]))' | sort)
from_ctest=$(cd "$build_dir" && ctest -N -L "^${tier}\$" | sed -n 's/^ *Test *#[0-9]*: //p' | sort)

if [ -z "$from_binary" ]; then echo "FAIL: the binary lists no $tier tests"; exit 1; fi
if [ "$from_binary" != "$from_ctest" ]; then
  echo "FAIL: ctest -L $tier and '$binary list --tier $tier' differ"
  diff <(echo "$from_binary") <(echo "$from_ctest") || true
  exit 1
fi
echo "ok: $(echo "$from_binary" | wc -l) $tier tests, the same in ctest and in the binary's listing"
