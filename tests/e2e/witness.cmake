# Violation witnesses (GraphML and YAML) of check and race, and siren validate: confirmed,
# mutated ones rejected, bad input exit 6, other tools' styles read, a broken validator caught.
add_test(NAME "witness: write, validate, mutants rejected"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/witness_test.py ${SIREN_BIN} ${SHARED_DIR})
set_tests_properties("witness: write, validate, mutants rejected" PROPERTIES TIMEOUT 300)
