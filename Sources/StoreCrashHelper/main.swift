import ObjectStore

// Used by the crash-safety tests of the file store (being built; see issue 7).
print("store crash helper: not built yet")
