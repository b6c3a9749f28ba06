/// The HeadlessUI module. Its contents arrive with the issue that builds it.
public enum HeadlessUIModule {}
