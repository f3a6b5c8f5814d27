# siren check/race --trace-html: the pages loaded in headless Chromium (one lane per thread, no
# script errors, the failing / racing steps marked, a screenshot), and planted breakage caught.
add_test(NAME "trace-html: pages in headless chromium"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/trace_html_test.py ${SIREN_BIN})
set_tests_properties("trace-html: pages in headless chromium" PROPERTIES TIMEOUT 240)
