# siren race over the shared SV-COMP no-data-race tasks: zero wrong verdicts, and no fewer
# correct ones than committed in race_sweep_expected.json.
add_test(NAME "svcomp: race no-data-race"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/race_sweep.py
                 ${SIREN_BIN} ${SHARED_DIR} --timeout 40 --jobs 2)
set_tests_properties("svcomp: race no-data-race" PROPERTIES TIMEOUT 900 PROCESSORS 2)
