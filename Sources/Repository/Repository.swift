/// The Repository module. Its contents arrive with the issue that builds it.
public enum RepositoryModule {}
