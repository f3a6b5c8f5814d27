# One ctest per folder of tests/regression (main.c + test.desc), run by run_test.py.
file(GLOB _cases LIST_DIRECTORIES true "${CMAKE_CURRENT_SOURCE_DIR}/regression/*")
foreach(_case ${_cases})
  if(IS_DIRECTORY ${_case} AND EXISTS ${_case}/test.desc)
    get_filename_component(_name ${_case} NAME)
    add_test(NAME "regression: ${_name}"
             COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/regression/run_test.py
                     ${SIREN_BIN} ${_case})
    set_tests_properties("regression: ${_name}" PROPERTIES TIMEOUT 150)
  endif()
endforeach()
