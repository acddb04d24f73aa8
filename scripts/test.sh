#!/usr/bin/env bash
# The project's test run: the Swift test suites, agreement with feedparser on the corpus of
# real podcast feeds (scripts/conformance.sh), then each fuzz target for 30 seconds
# (scripts/fuzz.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
swift test
scripts/conformance.sh
scripts/fuzz.sh --seconds 30
