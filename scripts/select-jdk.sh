# Sourced by ./derive and .ci/run: exports JAVA_HOME pointing at a JDK >= 25.
# Derive targets the Lambda java25 runtime (the image worker calls libvips through java.lang.foreign,
# compiled for 25), so the build needs JDK 25 or newer; machines often
# default to an older java, so look beside it before giving up.
derive_java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | awk -F'= ' '/java.specification.version/ {print $2; exit}'
}
derive_select_jdk() {
  local candidate major
  for candidate in "${JAVA_HOME:-}" /usr/lib/jvm/* "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")"; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$(derive_java_major "$candidate")
    if [ -n "$major" ] && [ "${major%%.*}" -ge 25 ] 2>/dev/null; then
      export JAVA_HOME="$candidate"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done
  echo "Derive needs a JDK 25 or newer (the Lambda java25 runtime). None was found in JAVA_HOME," >&2
  echo "/usr/lib/jvm or on PATH. Install one (e.g. Temurin 25 or 'apt-get install openjdk-25-jdk')" >&2
  echo "and set JAVA_HOME to it." >&2
  return 1
}
derive_select_jdk
