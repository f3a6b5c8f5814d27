# Front-end sweep: `siren cfg` on every input file of the shared SV-COMP set: no crash, no hang,
# clear diagnostics, and a committed number of cleanly converted files per category.
add_test(NAME "frontend: svcomp sweep"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/frontend_sweep.py
                 ${SIREN_BIN} ${SHARED_DIR})
set_tests_properties("frontend: svcomp sweep" PROPERTIES TIMEOUT 600)

# `siren cfg --points-to` prints the points-to sets of the thread model: in regression
# fnptr_ops_table the ops table's `put` field holds put_plain, which the call through it reaches.
add_test(NAME "frontend: cfg --points-to"
         COMMAND ${SIREN_BIN} cfg --points-to ${CMAKE_CURRENT_SOURCE_DIR}/regression/fnptr_ops_table/main.c)
set_tests_properties("frontend: cfg --points-to" PROPERTIES TIMEOUT 60
  PASS_REGULAR_EXPRESSION "fops.put -> \\{put_plain\\}")
