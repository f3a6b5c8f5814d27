# Front-end sweep: `siren cfg` on every input file of the shared SV-COMP set: no crash, no hang,
# clear diagnostics, and a committed number of cleanly converted files per category.
add_test(NAME "frontend: svcomp sweep"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/frontend_sweep.py
                 ${SIREN_BIN} ${SHARED_DIR})
set_tests_properties("frontend: svcomp sweep" PROPERTIES TIMEOUT 600)
