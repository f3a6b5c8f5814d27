# siren test: a failing native run is confirmed by siren's interpreter (and a deliberately
# broken front end is not).
add_test(NAME "native: siren test confirms with the interpreter"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/native_confirm_test.py ${SIREN_BIN}
                 ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties("native: siren test confirms with the interpreter" PROPERTIES TIMEOUT 300)
