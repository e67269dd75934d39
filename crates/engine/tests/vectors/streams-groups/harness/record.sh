#!/usr/bin/env bash
# Records streams-groups vectors by running Kafka's own StickyTaskAssignor.
# Usage: record.sh KAFKA_GIT_DIR OUT_DIR COUNT SEED
# Needs a JDK (17+). Extracts the assignor packages unmodified from the Kafka
# git dir (the 4.3 branch just before KAFKA-20899, i.e. the 4.3.1 assignor; the
# 4.4 branch), compiles them with stubs for slf4j, two Kafka annotations and
# ApiException, and runs Gen.
set -euo pipefail
kafka=$1 out=$2 count=$3 seed=$4
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extract() { # ref dest
  for dir in group-coordinator/src/main/java/org/apache/kafka/coordinator/group/streams/assignor \
             group-coordinator/group-coordinator-api/src/main/java/org/apache/kafka/coordinator/group/api/streams/assignor; do
    for f in $(git -C "$kafka" ls-tree -r --name-only "$1" "$dir/" 2>/dev/null); do
      rel=org/${f#*/java/org/}
      mkdir -p "$2/$(dirname "$rel")"
      git -C "$kafka" show "$1:$f" > "$2/$rel"
    done
  done
  # Not used by StickyTaskAssignor; they pull in the rest of the coordinator.
  rm -f "$2"/org/apache/kafka/coordinator/group/streams/assignor/{MockAssignor,AssignmentConfigsImpl}.java
}
build() { # label ref
  extract "$2" "$work/$1/src"
  javac -nowarn -d "$work/$1/classes" $(find "$here/stubs" "$work/$1/src" -name '*.java') \
    "$here/Gen.java" "$here/a$1/Adapter.java"
}
before_fix=$(git -C "$kafka" log -1 --format=%H --grep=KAFKA-20899 4.3)^
build 4.3.1 "$before_fix"
build 4.4 4.4
java -cp "$work/4.3.1/classes" Gen 4.3.1 "$out/4.3.1" "$count" "$seed"
java -cp "$work/4.4/classes" Gen 4.4 "$out/4.4" "$count" "$((seed + 1))"
java -cp "$work/4.4/classes" Gen 4.4 "$out/4.4-offsets" "$count" "$((seed + 2))" offsets
