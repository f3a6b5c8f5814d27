# Counterexamples using values of functions without a body are confirmed natively; the TEST
# ONLY switch that skips it gives wrong verdicts that the regression cases catch.
add_test(NAME "native: counterexamples using library values are confirmed"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/library_values_test.py ${SIREN_BIN}
                 ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties("native: counterexamples using library values are confirmed" PROPERTIES TIMEOUT 600)
