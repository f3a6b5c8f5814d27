# siren triage --manifest --report DIR: index.html with the verdict counts per program (as in the
# results file) and a link per RACE to its trace page (issue 24, item 4).
add_test(NAME "triage: report of a manifest"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/triage_report_test.py ${SIREN_BIN} ${SHARED_DIR})
set_tests_properties("triage: report of a manifest" PROPERTIES TIMEOUT 300)
