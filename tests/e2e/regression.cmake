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

# Deliberately broken variants (a hidden --test-* flag each): the named cases must fail with it,
# which shows that they catch the bug the flag brings back.
foreach(_case mutex_recursive_relock_bug mutex_recursive_relock_safe mutex_errorcheck_relock_checked
              mutex_errorcheck_relock_ignored mutex_recursive_static_init race_recursive_mutex_unlock_once)
  add_test(NAME "regression broken: ${_case} catches ignored mutex kinds"
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/regression/run_test.py
                   ${SIREN_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/regression/${_case} --broken --test-ignore-mutex-kinds)
  set_tests_properties("regression broken: ${_case} catches ignored mutex kinds" PROPERTIES TIMEOUT 150)
endforeach()

# A front end whose kernel functions without a body touch no memory (hidden
# --test-kernel-functions-touch-nothing): the write and the read cases must fail with it.
foreach(_case kernel_function_writes_plain kernel_function_reads_race)
  add_test(NAME "regression broken: ${_case} catches kernel functions that touch nothing"
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/regression/run_test.py
                   ${SIREN_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/regression/${_case} --broken --test-kernel-functions-touch-nothing)
  set_tests_properties("regression broken: ${_case} catches kernel functions that touch nothing" PROPERTIES TIMEOUT 150)
endforeach()

# A front end that places every bit-field one bit above Clang's layout (hidden
# --test-wrong-bitfield-layout): the value cases and the safe sign-extension twin must fail with it.
foreach(_case bitfield_values_safe bitfield_values_safe_32 bitfield_sign_extension_safe)
  add_test(NAME "regression broken: ${_case} catches a wrong bit-field layout"
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/regression/run_test.py
                   ${SIREN_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/regression/${_case} --broken --test-wrong-bitfield-layout)
  set_tests_properties("regression broken: ${_case} catches a wrong bit-field layout" PROPERTIES TIMEOUT 150)
endforeach()

# A front end whose functions without a body return their call site's own object only (hidden
# --test-external-objects-distinct): the aliasing cases must fail with it.
foreach(_case extern_object_race_same_object extern_object_race_nested extern_object_race_global
              extern_object_alias_check)
  add_test(NAME "regression broken: ${_case} catches external objects that never alias"
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/regression/run_test.py
                   ${SIREN_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/regression/${_case} --broken --test-external-objects-distinct)
  set_tests_properties("regression broken: ${_case} catches external objects that never alias" PROPERTIES TIMEOUT 150)
endforeach()

# An explicit-state race search that counts only write/write pairs (hidden
# --test-race-search-writes-only): the read/write race case must fail with it.
foreach(_case race_search_unlocked_read)
  add_test(NAME "regression broken: ${_case} catches a race search that ignores reads"
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/regression/run_test.py
                   ${SIREN_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/regression/${_case} --broken --test-race-search-writes-only)
  set_tests_properties("regression broken: ${_case} catches a race search that ignores reads" PROPERTIES TIMEOUT 150)
endforeach()

# A thread-modular race-freedom proof that drops the other threads' transitions (hidden
# --test-modular-no-interference): the case whose race needs main's step to reach a worker must fail.
foreach(_case race_modular_flag_race)
  add_test(NAME "regression broken: ${_case} catches a race-freedom proof without interference"
           COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/regression/run_test.py
                   ${SIREN_BIN} ${CMAKE_CURRENT_SOURCE_DIR}/regression/${_case} --broken --test-modular-no-interference)
  set_tests_properties("regression broken: ${_case} catches a race-freedom proof without interference" PROPERTIES TIMEOUT 150)
endforeach()
