# benchmarks/run: scoring on a hand-made CSV, outcome classification, SV-COMP task parsing of
# the shared set, and the runner end to end against a fake siren (benchmarks/tests/fake_siren).
# Needs Debian's /usr/bin/python3 with python3-yaml and python3-matplotlib (scripts/setup).
add_test(NAME "benchmarks: runner, scoring and task parsing"
  COMMAND /usr/bin/python3 -m unittest -v benchmarks/tests/test_scoring.py
  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties("benchmarks: runner, scoring and task parsing" PROPERTIES
  ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1;SIREN_SHARED_DIR=${SHARED_DIR}"
  TIMEOUT 300)
