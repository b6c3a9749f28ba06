/// The ObjectStore module. Its contents arrive with the issue that builds it.
public enum ObjectStoreModule {}
