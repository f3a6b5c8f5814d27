# siren triage --driver (issue 41, items 4-5; docs/drivers.md): entry points found, one harness
# per pair, the races of a toy driver found and replayed natively, none where a mutex or an
# atomic keeps them apart, a kernel model whose mutex does not exclude caught, bad input.
add_test(NAME "triage: --driver on a toy driver and a Linux driver"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/driver_test.py ${SIREN_BIN} ${SHARED_DIR}
                 ${PROJECT_SOURCE_DIR})
set_tests_properties("triage: --driver on a toy driver and a Linux driver" PROPERTIES TIMEOUT 900)
