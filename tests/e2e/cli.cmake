# Bad input and bad flags get a clear one-line error and a documented exit code.
set(_cli "${CMAKE_CURRENT_SOURCE_DIR}/e2e/cli_test.py")
add_test(NAME "cli: bad input and flags"
         COMMAND /usr/bin/python3 ${_cli} ${SIREN_BIN} ${CMAKE_CURRENT_SOURCE_DIR})
set_tests_properties("cli: bad input and flags" PROPERTIES TIMEOUT 120)
