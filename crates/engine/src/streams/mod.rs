//! Kafka Streams rebalancing (KIP-429, KIP-441): tasks, lags and task assignors.
