/**
 * The conventions a trace export follows (docs/otlp.md): OpenTelemetry's
 * GenAI semantic conventions at this version, with OpenInference's
 * attribute names beside them for Phoenix.
 */
export const SEMCONV_VERSION = '1.37.0';
export const SEMCONV_SCHEMA_URL = `https://opentelemetry.io/schemas/${SEMCONV_VERSION}`;

/**
 * `gen_ai.provider.name` for a DSH provider id: DeepSeek's adapters (`deepseek-official`, …) are the
 * conventions' well-known `deepseek`; any other id is passed on as DSH logs it.
 */
export function genAiProvider(provider: string): string {
  return /^deepseek\b/.test(provider) ? 'deepseek' : provider;
}
