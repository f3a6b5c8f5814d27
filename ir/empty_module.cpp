// Placeholder translation unit for modules that have no sources yet (see CMakeLists.txt).
