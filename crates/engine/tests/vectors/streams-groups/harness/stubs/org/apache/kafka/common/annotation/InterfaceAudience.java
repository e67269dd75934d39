package org.apache.kafka.common.annotation;
public class InterfaceAudience { public @interface Public {} }
