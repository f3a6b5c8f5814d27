# SARIF (issue 23, item 5): every log siren check/race/triage --sarif writes passes Microsoft's
# validator (sarif-multitool, installed by scripts/setup into build/npm) with no error and no
# warning; check's log has one threadFlow per thread in global order; a broken log is reported.
add_test(NAME "sarif: logs pass sarif-multitool validate"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/sarif_test.py ${SIREN_BIN}
                 ${CMAKE_BINARY_DIR}/npm/node_modules/.bin/sarif-multitool ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties("sarif: logs pass sarif-multitool validate" PROPERTIES TIMEOUT 300)
