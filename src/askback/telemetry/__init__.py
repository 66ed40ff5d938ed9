"""What askback tells OpenTelemetry: askback's attributes on each request's span, the link from each round to the
one before it, the flow metrics (`flows`), and the SDK set up from the standard `OTEL_*` variables (`setup`)."""
