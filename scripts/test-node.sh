#!/usr/bin/env bash
# Runs a representative part of the suite on another Node.js major (22, 24, …) without touching the
# machine's Node or this checkout's node_modules:
#
#   scripts/test-node.sh 22                    # the default set below
#   scripts/test-node.sh 24 test/e2e/auth.test.ts libs
#
# Node comes from the npm registry as a package (`node-<platform>-<arch>@<major>`, what `node@<major>`
# installs), into a temp folder. The checkout (tracked and untracked files, no node_modules or
# dist) is copied beside it; its node_modules links every package of the shared install except
# argon2, which is copied and compiled from source against that Node's own headers (the one native
# module the service loads). Uses TEST_DATABASE_URL when set, like `npm test`. Everything is removed
# at the end (KEEP_NODE_TEST=1 keeps it and says where).
set -euo pipefail

major="${1:?usage: scripts/test-node.sh <node major> [jest paths…]}"
shift
root="$(cd "$(dirname "$0")/.." && pwd)"
# Domain unit tests, the architecture rules, and end-to-end suites over HTTP that cover accounts
# (argon2), projects, tasks and their values, the stream, and a clean stop.
default_tests=(libs test/architecture test/e2e/auth.test.ts test/e2e/projects.test.ts test/e2e/tasks.test.ts
  test/e2e/stream.test.ts test/e2e/common-passwords.test.ts test/e2e/start-and-stop.test.ts)
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=("${default_tests[@]}")

platform="$(node -p 'process.platform')"
arch="$(node -p 'process.arch')"
work="$(mktemp -d "${TMPDIR:-/tmp}/task-board-node${major}-XXXXXX")"
if [ "${KEEP_NODE_TEST:-}" = 1 ]; then
  trap 'echo "kept: $work"' EXIT
else
  trap 'rm -rf "$work"' EXIT
fi

echo "== Node ${major}: installing node-${platform}-${arch}@${major} from the npm registry"
npm install --prefix "$work/runtime" --no-save --no-audit --no-fund --loglevel=error "node-${platform}-${arch}@${major}" >/dev/null
nodedir="$work/runtime/node_modules/node-${platform}-${arch}"
export PATH="$nodedir/bin:$PATH"
echo "== $(node -v) at $(command -v node)"

echo "== copying the checkout to $work/app"
mkdir -p "$work/app/node_modules"
(cd "$root" && git ls-files -z --cached --others --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -C "$work/app" -xf -
for entry in "$root"/node_modules/* "$root"/node_modules/.bin; do
  [ "$(basename "$entry")" = argon2 ] && continue
  ln -s "$entry" "$work/app/node_modules/$(basename "$entry")"
done
cp -R "$root/node_modules/argon2" "$work/app/node_modules/argon2"
rm -rf "$work/app/node_modules/argon2/build"

echo "== compiling argon2 from source for $(node -v) (ABI $(node -p 'process.versions.modules'))"
(cd "$work/app/node_modules/argon2" && npm_config_nodedir="$nodedir" npm_config_build_from_source=true npm run install --silent >/dev/null)
node -e "require('$work/app/node_modules/argon2').hash('x').then(() => console.log('== argon2 loads and hashes'))"

echo "== jest ${tests[*]}"
cd "$work/app"
node node_modules/jest/bin/jest.js --runInBand "${tests[@]}"
