#!/usr/bin/env bash
# Builds the ORIGINAL Better Call Dev web app (Vue 2, GitHub baking-bad/bcd) with its service URLs pointed at a
# Michelscope product, as the reference of bench/web-reference.ts (issue 36 part 2).
#
#   VJSF_SRC=DIR scripts/build-bcd-reference.sh SRC [OUT]    (or BCD_SRC=… BCD_OUT=…)
#
# SRC: a checkout (or `git archive`) of baking-bad/bcd. Pinned and measured commit:
#   59ec50b03532afe61d005342f97844a2db3ee08f  "Handle ghost contracts" (2026-05-11), package.json 4.5.2
#   (Vue 2.7.16, Vuetify 2.6.13, @vue/cli-service 5.0.9 / webpack 5.101.3, sass 1.32.13 per its lock file)
#   e.g. git --git-dir=/work/.mirror/baking-bad+bcd/repo archive 59ec50b0 | tar -x -C /tmp/bcd-ui
# VJSF_SRC: a checkout of BCD's form library, github.com/baking-bad/vuetify-jsonschema-form, pinned at
#   a4fb72768ad75939239137de39138c69356ff26b ("Fix", 2025-09-02; package.json @baking-bad/vjsf 1.21.3, the
#   version BCD's lock file names). Needed because the npm registry no longer has @baking-bad/vjsf at all.
#   e.g. git --git-dir=/work/.mirror/baking-bad+vuetify-jsonschema-form/repo archive a4fb7276 | tar -x -C /tmp/vjsf
# OUT: where the built app goes (default SRC/dist). It is a static SPA: serve it with a history fallback to
#   index.html (bench/web-reference.ts does).
# BCD_ORIGIN: the Michelscope origin the app calls (default http://michelscope-origin.invalid, a placeholder
#   that bench/web-reference.ts replaces with the product's origin while it serves the files; set a real one,
#   e.g. http://127.0.0.1:18480, to serve the build with any static server).
#
# What it changes in SRC (nothing else of BCD's source is touched):
#   1. Dependencies at the lock file's exact versions, but for one family: every @tezos-x/octez.connect-*
#      4.8.2 (the wallet SDK, ^4.8.2 in package.json) is no longer on the npm registry (404; 4.8.4 is the only
#      4.x there), so their entries are dropped from package-lock.json and `npm install` resolves them to
#      4.8.4; everything else stays locked. --ignore-scripts: no install scripts (yorkie's git hooks,
#      core-js's banner, apollo's protobufjs, taquito's patch.js, none needed by the build).
#      And @baking-bad/vjsf 1.21.3 (the JSON-schema forms), which the registry does not have (404 for the
#      package): package.json's dependency becomes file:./vjsf-local, a copy of VJSF_SRC's package.json,
#      LICENSE and lib/ (what BCD imports: lib/VJsf.js, lib/VJsf.css; the published package had lib/ too);
#      its lock entries are dropped so npm resolves its own dependencies (debounce, ajv, markdown-it, …) by
#      its package.json's ranges. npm links a file: dependency (node_modules/@baking-bad/vjsf -> vjsf-local),
#      and webpack, following the link, would lint (BCD's build runs eslint on its own sources) and babel it
#      as BCD's own code: the link is replaced by a copy, with vjsf's nested @mdi/js and @mdi/font 6.x as in
#      the original lock (node_modules/@baking-bad/vjsf/node_modules/@mdi).
#   2. A new Vue CLI mode file .env.michelscope (the build runs with --mode michelscope; .env.production is
#      left alone): VUE_APP_API_URI=$BCD_ORIGIN/v1, VUE_APP_SEARCH_SERVICE_URI=$BCD_ORIGIN/search,
#      VUE_APP_METADATA_API_URI and VUE_APP_TOKEN_METADATA_API=$BCD_ORIGIN/metadata (Michelscope serves their
#      GraphQL at /metadata/v1/graphql). No stats URIs (BCD's stats map has no sandboxnet entry) and no
#      VUE_APP_SENTRY_URI (Sentry stays off); Google Analytics follows /v1/config ga_enabled (false).
#   3. public/index.html: the Google Fonts stylesheet <link> is removed (a render-blocking request to
#      fonts.googleapis.com; the bench machine has no internet, and the deployed app pays for it: leaving it
#      out can only make the reference faster). The app then falls back to local sans-serif/monospace fonts.
# Node 20 needs no other change (webpack 5 hashes with its own md4: no --openssl-legacy-provider; sass is
# already dart-sass, no node-sass). Runs npm and the build under `nice -n 19`.
set -euo pipefail

PINNED=59ec50b03532afe61d005342f97844a2db3ee08f
VJSF_PINNED=a4fb72768ad75939239137de39138c69356ff26b
SRC=${1:-${BCD_SRC:-}}
die() {
  echo "build-bcd-reference: $*" >&2
  exit 1
}
[ -n "$SRC" ] || die "usage: $0 SRC [OUT] (or BCD_SRC=…): SRC is a checkout of github.com/baking-bad/bcd at $PINNED"
[ -d "$SRC" ] || die "$SRC is not a directory"
SRC=$(cd "$SRC" && pwd)
OUT=${2:-${BCD_OUT:-$SRC/dist}}
ORIGIN=${BCD_ORIGIN:-http://michelscope-origin.invalid}
ORIGIN=${ORIGIN%/}

[ -f "$SRC/package.json" ] && grep -q '"name": "better-call-dev"' "$SRC/package.json" ||
  die "$SRC/package.json is not Better Call Dev's (name better-call-dev)"
[ -f "$SRC/package-lock.json" ] || die "$SRC has no package-lock.json (a full checkout of baking-bad/bcd is needed)"
[ -f "$SRC/public/index.html" ] || die "$SRC/public/index.html missing"
VJSF_SRC=${VJSF_SRC:-}
[ -n "$VJSF_SRC" ] || die "VJSF_SRC is not set: a checkout of github.com/baking-bad/vuetify-jsonschema-form at $VJSF_PINNED"
[ -f "$VJSF_SRC/lib/VJsf.js" ] && grep -q '"name": "@baking-bad/vjsf"' "$VJSF_SRC/package.json" ||
  die "$VJSF_SRC is not @baking-bad/vjsf's source (package.json, lib/VJsf.js)"
grep -q '"version": "1.21.3"' "$VJSF_SRC/package.json" ||
  echo "build-bcd-reference: warning: $VJSF_SRC is not @baking-bad/vjsf 1.21.3 (commit $VJSF_PINNED)" >&2
if git -C "$SRC" rev-parse HEAD >/dev/null 2>&1; then
  AT=$(git -C "$SRC" rev-parse HEAD)
  [ "$AT" = "$PINNED" ] || echo "build-bcd-reference: warning: $SRC is at $AT, not the pinned $PINNED" >&2
else
  AT="unknown (not a git checkout; expected $PINNED)"
  grep -q '"version": "4.5.2"' "$SRC/package.json" ||
    echo "build-bcd-reference: warning: package.json is not version 4.5.2 (the pinned commit's)" >&2
fi
major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) || die "node not found"
[ "$major" -ge 18 ] || die "node $major: needs Node 18 or newer (tested with 20)"

cd "$SRC"
# 1. dependencies, exactly as locked
if [ ! -x node_modules/.bin/vue-cli-service ]; then
  rm -rf vjsf-local && mkdir vjsf-local && cp -r "$VJSF_SRC/package.json" "$VJSF_SRC/LICENSE" "$VJSF_SRC/lib" vjsf-local/
  npm pkg set "dependencies.@baking-bad/vjsf=file:./vjsf-local" || die "could not set the vjsf dependency"
  node -e '
    const fs = require("fs");
    const lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
    let dropped = 0;
    for (const key of Object.keys(lock.packages))
      if (/node_modules\/(@tezos-x\/|@baking-bad\/vjsf)/.test(key)) delete lock.packages[key], dropped++;
    delete lock.packages[""].dependencies["@baking-bad/vjsf"];
    fs.writeFileSync("package-lock.json", JSON.stringify(lock, null, 2) + "\n");
    console.log(`build-bcd-reference: ${dropped} @tezos-x and @baking-bad/vjsf entries dropped from package-lock.json`);
  ' || die "could not edit package-lock.json"
  echo "build-bcd-reference: npm install in $SRC (nice 19)…"
  nice -n 19 npm install --ignore-scripts --no-audit --no-fund || die "npm install failed"
fi
if [ -L node_modules/@baking-bad/vjsf ]; then
  rm node_modules/@baking-bad/vjsf
  mkdir -p node_modules/@baking-bad/vjsf/node_modules
  cp -r vjsf-local/package.json vjsf-local/LICENSE vjsf-local/lib node_modules/@baking-bad/vjsf/
  [ ! -d vjsf-local/node_modules/@mdi ] || cp -r vjsf-local/node_modules/@mdi node_modules/@baking-bad/vjsf/node_modules/
fi
[ -f node_modules/@baking-bad/vjsf/lib/VJsf.js ] || die "node_modules/@baking-bad/vjsf/lib/VJsf.js missing after the install"
[ -x node_modules/.bin/vue-cli-service ] || die "node_modules/.bin/vue-cli-service missing after npm ci"

# 2. the service URLs (a mode of its own: .env.production stays as upstream has it)
cat >.env.michelscope <<EOF
NODE_ENV=production
VUE_APP_API_URI=$ORIGIN/v1
VUE_APP_SEARCH_SERVICE_URI=$ORIGIN/search
VUE_APP_METADATA_API_URI=$ORIGIN/metadata
VUE_APP_TOKEN_METADATA_API=$ORIGIN/metadata
VUE_APP_IPFS_NODE=https://ipfs.io
EOF

# 3. no external stylesheet (idempotent)
sed -i '/fonts\.googleapis\.com/d' public/index.html
! grep -q 'googleapis' public/index.html || die "could not remove the Google Fonts link from public/index.html"

# build
echo "build-bcd-reference: vue-cli-service build --mode michelscope --dest $OUT (nice 19)…"
nice -n 19 node_modules/.bin/vue-cli-service build --mode michelscope --dest "$OUT" ||
  die "vue-cli-service build failed"
[ -f "$OUT/index.html" ] || die "$OUT/index.html missing after the build"
grep -rqF "$ORIGIN/v1" "$OUT/js" || die "the built app does not contain $ORIGIN/v1"

cat >"$OUT/MICHELSCOPE-BUILD.txt" <<EOF
Better Call Dev built by scripts/build-bcd-reference.sh on $(date -u +%Y-%m-%dT%H:%M:%SZ)
commit: $AT
node: $(node -v)
origin: $ORIGIN
EOF
echo "build-bcd-reference: built $OUT (origin $ORIGIN)"
