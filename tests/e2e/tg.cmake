# `siren tg examples/fig1.c --json`: the transaction graph of the seed's Fig. 1 has sh exactly
# 2, 4, 7 at (a3,b1), (a3,b2), (a3,b3) (fig1.c lines 25 / 12, 13, 14), and the text and DOT
# outputs work.
add_test(NAME "tg: fig1 invariants (siren tg --json)"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/tg_fig1.py ${SIREN_BIN}
                 ${PROJECT_SOURCE_DIR}/examples/fig1.c)
set_tests_properties("tg: fig1 invariants (siren tg --json)" PROPERTIES TIMEOUT 120)
