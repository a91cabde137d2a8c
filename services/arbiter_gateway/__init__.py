"""The HTTP and WebSocket gateway: players and judges in, commands to Kafka, views out."""
