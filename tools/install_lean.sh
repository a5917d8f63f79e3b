#!/usr/bin/env bash
# Install what ATF's syntax check needs to run real Lean: bubblewrap (every REPL runs sandboxed), elan,
# the leanprover-community REPL, and a Mathlib project on the same Lean version. Needs internet, git,
# curl and ~10 GB of disk (Mathlib's build cache). Re-running it is safe: finished steps are skipped.
#
#   tools/install_lean.sh                  # REPL from its default branch, Mathlib tag = the REPL's toolchain
#   ATF_REPL_REV=<commit|tag> ATF_MATHLIB_REV=<tag|commit> tools/install_lean.sh
#
# Layout (what atf.lean.SyntaxChecker finds without configuration):
#   $ATF_LEAN_HOME/repl      leanprover-community/repl, built  (.lake/build/bin/repl)
#   $ATF_LEAN_HOME/project   a Lake project requiring Mathlib, with its olean cache downloaded
# ATF_LEAN_HOME defaults to ~/.cache/atf/lean. The REPL runs as `lake env <repl binary>` inside project/.
set -euo pipefail

if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi

# 0. bubblewrap: ATF runs each Lean REPL in a bwrap sandbox (no network, read-only toolchain and project)
if ! command -v bwrap >/dev/null 2>&1; then
  printf '\n==> installing bubblewrap\n'
  SUDO=""; [[ "$(id -u)" -ne 0 ]] && SUDO="sudo"
  $SUDO apt-get update -qq && $SUDO apt-get install -y -qq bubblewrap \
    || { echo "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap) and re-run" >&2; exit 1; }
fi
if ! bwrap --unshare-all --ro-bind / / true; then
  echo "bubblewrap is installed but cannot create namespaces here: user namespaces are restricted" >&2
  echo "(kernel.unprivileged_userns_clone, user.max_user_namespaces, AppArmor, or a container's seccomp)." >&2
  echo "Allow them, or run ATF with --sandbox none on trusted input only." >&2
fi

HOME_DIR="${ATF_LEAN_HOME:-$HOME/.cache/atf/lean}"
REPL_URL="${ATF_REPL_URL:-https://github.com/leanprover-community/repl}"
REPL_REV="${ATF_REPL_REV:-}"
MATHLIB_URL="${ATF_MATHLIB_URL:-https://github.com/leanprover-community/mathlib4}"
mkdir -p "$HOME_DIR"
say() { printf '\n==> %s\n' "$*"; }

# 1. elan (the Lean toolchain manager); the toolchain itself comes from each project's lean-toolchain
if ! command -v elan >/dev/null 2>&1 && [[ ! -x "$HOME/.elan/bin/elan" ]]; then
  say "installing elan"
  curl -sSfL https://raw.githubusercontent.com/leanprover/elan/master/elan-init.sh -o "$HOME_DIR/elan-init.sh"
  sh "$HOME_DIR/elan-init.sh" -y --default-toolchain none
fi
export PATH="$HOME/.elan/bin:$PATH"

# 2. the REPL, built with the toolchain it pins
if [[ ! -d "$HOME_DIR/repl/.git" ]]; then
  say "cloning $REPL_URL"
  git clone "$REPL_URL" "$HOME_DIR/repl"
fi
if [[ -n "$REPL_REV" ]]; then
  git -C "$HOME_DIR/repl" fetch --tags origin
  git -C "$HOME_DIR/repl" checkout --quiet "$REPL_REV"
fi
TOOLCHAIN="$(tr -d '[:space:]' < "$HOME_DIR/repl/lean-toolchain")"
LEAN_VERSION="${TOOLCHAIN##*:}"   # leanprover/lean4:v4.24.0 -> v4.24.0
say "building the REPL ($TOOLCHAIN)"
(cd "$HOME_DIR/repl" && lake build)

# 3. a Mathlib project on the same Lean version (Mathlib tags its releases v4.X.Y)
MATHLIB_REV="${ATF_MATHLIB_REV:-$LEAN_VERSION}"
PROJECT="$HOME_DIR/project"
mkdir -p "$PROJECT"
if [[ ! -f "$PROJECT/lakefile.toml" ]]; then
  say "creating the Mathlib project (mathlib4 @ $MATHLIB_REV)"
  cat > "$PROJECT/lakefile.toml" <<EOF
name = "atf_statements"

[[require]]
name = "mathlib"
git = "$MATHLIB_URL"
rev = "$MATHLIB_REV"
EOF
  echo "$TOOLCHAIN" > "$PROJECT/lean-toolchain"
fi
say "fetching Mathlib and its build cache (several GB)"
(cd "$PROJECT" && lake update && lake exe cache get)
MATHLIB_TOOLCHAIN="$(tr -d '[:space:]' < "$PROJECT/.lake/packages/mathlib/lean-toolchain")"
if [[ "$MATHLIB_TOOLCHAIN" != "$TOOLCHAIN" ]]; then
  echo "warning: Mathlib @ $MATHLIB_REV wants $MATHLIB_TOOLCHAIN but the REPL is built for $TOOLCHAIN;" >&2
  echo "         pick matching revisions with ATF_REPL_REV / ATF_MATHLIB_REV" >&2
fi

# 4. smoke test: one statement through the REPL
say "smoke test"
REPL_BIN="$HOME_DIR/repl/.lake/build/bin/repl"
# the toolchain's own lake, so that the sandboxed REPL needs no elan proxy (and no HOME) to start
LAKE_BIN="$(cd "$PROJECT" && elan which lake)"
printf '%s\n\n' '{"cmd": "import Mathlib\ntheorem atf_smoke (x : ℝ) (h : 0 < x) : 0 < x ^ 2 := by sorry"}' \
  | (cd "$PROJECT" && "$LAKE_BIN" env "$REPL_BIN") | tee "$HOME_DIR/smoke.json"
grep -q '"env"' "$HOME_DIR/smoke.json" || { echo "the REPL did not answer as expected" >&2; exit 1; }

cat <<EOF

Lean is ready. ATF finds this layout by itself; to point at it explicitly:
  export ATF_LEAN_REPL="$LAKE_BIN env $REPL_BIN"
  export ATF_LEAN_PROJECT="$PROJECT"
Check: atf syntax-check \$'import Mathlib\ntheorem t : (2 : ℕ) + 2 = 4 := by sorry'
EOF
