# siren check over the shared SV-COMP unreach-call tasks: zero wrong verdicts, and no fewer
# correct ones than committed in svcomp_check_expected.json; both witnesses of every UNSAFE
# answer confirmed by siren validate.
add_test(NAME "svcomp: check unreach-call"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/svcomp_check.py
                 ${SIREN_BIN} ${SHARED_DIR} --timeout 20 --jobs 2 --witnesses)
set_tests_properties("svcomp: check unreach-call" PROPERTIES TIMEOUT 1200 PROCESSORS 2)
