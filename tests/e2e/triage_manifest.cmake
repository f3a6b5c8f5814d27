# siren triage --manifest: many programs, one resumable result stream; bad manifest lines are
# one-line errors and the rest still runs; SIGKILL and resume; Slurm missing or down.
add_test(NAME "triage: manifest"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/triage_manifest_test.py ${SIREN_BIN} ${SHARED_DIR})
set_tests_properties("triage: manifest" PROPERTIES TIMEOUT 300 PROCESSORS 2)

# siren triage --executor slurm on the local Slurm cluster (scripts/slurm-local): the verdicts of
# the local executor; an array task cancelled mid-run is resubmitted, every warning answered once.
add_test(NAME "slurm: manifest triage through Slurm"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/triage_slurm_test.py ${SIREN_BIN} ${SHARED_DIR}
                 ${PROJECT_SOURCE_DIR}/scripts/slurm-local)
set_tests_properties("slurm: manifest triage through Slurm" PROPERTIES TIMEOUT 300 PROCESSORS 2 LABELS slurm)
