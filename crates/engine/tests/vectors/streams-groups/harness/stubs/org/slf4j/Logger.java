package org.slf4j;
public interface Logger { default void warn(String f, Object... a) {} default void error(String f, Object... a) {} default void info(String f, Object... a) {} default void debug(String f, Object... a) {} }
