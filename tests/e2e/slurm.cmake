# Smoke test of the local Slurm cluster (scripts/slurm-local start, which .ci/run does): a 2-task
# array job submitted with sbatch --wait runs and writes each task's id.
add_test(NAME "slurm: local cluster runs an array job"
         COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/e2e/slurm_test.py ${PROJECT_SOURCE_DIR})
set_tests_properties("slurm: local cluster runs an array job" PROPERTIES LABELS slurm TIMEOUT 120)
