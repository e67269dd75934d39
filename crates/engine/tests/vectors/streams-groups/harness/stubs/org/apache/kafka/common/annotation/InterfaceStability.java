package org.apache.kafka.common.annotation;
public class InterfaceStability { public @interface Evolving {} }
