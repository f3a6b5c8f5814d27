# The module layering of docs/architecture.md, read from the sources: every cross-folder
# #include of a product folder goes where it may (scripts/layers), and the check flags a planted
# include of the explicit engine from encoder/ (its deliberately broken input).
add_test(NAME "layout: includes follow docs/architecture.md"
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/scripts/layers)
add_test(NAME "layout: a planted wrong include is flagged"
         COMMAND /usr/bin/python3 ${PROJECT_SOURCE_DIR}/scripts/layers --self-test)
