// The `.resourceCheck` trait lives in StreamsTesting, where apps' tests can use it too; test
// targets that import TestSupport keep seeing it.
@_exported import StreamsTesting
