/**
 * Issue 23: the photo is judged on the phone before upload (app/ocr/capture-quality.ts, the
 * same check the server runs), shown in a preview with what to fix, and the user chooses: Retake
 * Photo, Upload New Image, or Use this photo.
 */
import { Link } from '@remix-run/react'
import { CAPTURE_DECODE_SIDE, checkCapture, type CaptureVerdict } from '~/ocr/capture-quality'
import { Icon } from './icons'

/** Decodes the picked or captured file in the browser and checks it; null when the browser cannot decode it (HEIC). */
export async function checkCaptureInBrowser(file: Blob): Promise<CaptureVerdict | null> {
  let bitmap: ImageBitmap
  try {
    bitmap = await createImageBitmap(file)
  } catch {
    return null
  }
  try {
    const scale = Math.min(1, CAPTURE_DECODE_SIDE / Math.max(bitmap.width, bitmap.height))
    const width = Math.max(1, Math.round(bitmap.width * scale))
    const height = Math.max(1, Math.round(bitmap.height * scale))
    const canvas = document.createElement('canvas')
    canvas.width = width
    canvas.height = height
    const context = canvas.getContext('2d', { willReadFrequently: true })
    if (!context) return null
    context.fillStyle = '#ffffff'
    context.fillRect(0, 0, width, height)
    context.drawImage(bitmap, 0, 0, width, height)
    const pixels = context.getImageData(0, 0, width, height)
    return checkCapture({ width, height, data: pixels.data, channels: 4 }, { width: bitmap.width, height: bitmap.height })
  } finally {
    bitmap.close()
  }
}

export function CapturePreview({
  src,
  advice,
  onRetake,
  onUploadNew,
  onUse,
}: {
  src: string
  /** What the capture check found wrong, or null for a good photo. */
  advice: string | null
  onRetake: () => void
  onUploadNew: (file: File) => void
  onUse: () => void
}) {
  return (
    <div className="stack capture-preview" data-testid="capture-preview">
      <img src={src} alt="Your receipt" className="preview" />
      {advice ? (
        <div className="alert warn" role="alert">
          <strong>{advice}</strong>
          <p className="small" style={{ margin: '0.25rem 0 0' }}>
            A sharp, well lit photo is read at once; a poor one waits for our team, usually within a day.
          </p>
        </div>
      ) : (
        <p className="small muted" style={{ margin: 0 }}>
          <Icon name="check" /> The photo looks sharp and well lit.
        </p>
      )}
      <div className="btn-pair">
        <button type="button" className={advice ? 'btn' : 'btn secondary'} style={{ flex: 1 }} onClick={onRetake}>
          <Icon name="camera" /> Retake Photo
        </button>
        <label className="btn secondary file-button" style={{ flex: 1 }}>
          <Icon name="image" /> Upload New Image
          <input
            type="file"
            accept="image/*"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0]
              if (file) onUploadNew(file)
            }}
          />
        </label>
      </div>
      <button type="button" className={advice ? 'btn secondary block' : 'btn block'} onClick={onUse}>
        Use this photo
      </button>
    </div>
  )
}

/** After upload (with or without JavaScript): the server found the photo poor; a retake comes before staff review. */
export function RetakeAdvice({ advice }: { advice: string }) {
  return (
    <div className="alert warn" role="alert" data-testid="retake-advice">
      <strong>{advice}</strong>
      <p className="small" style={{ margin: '0.25rem 0 0.5rem' }}>
        We could not read every detail from this photo. A new photo is read at once; staff review usually takes less than a day.
      </p>
      <Link to="/scan" className="btn block">
        <Icon name="camera" /> Retake Photo
      </Link>
    </div>
  )
}
