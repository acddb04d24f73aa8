#!/usr/bin/env bash
# The project's test run: the Swift test suites, then agreement with feedparser on the corpus
# of real podcast feeds (scripts/conformance.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
swift test
scripts/conformance.sh
