import { useEffect, useRef, useState } from 'react'
import { oddFileKindOf, oddFileMessage } from '~/analysis/file-kinds'
import { Icon } from './icons'
import { showToast } from './toaster'

export const CAMERA_ERRORS = {
  NotAllowedError: 'Camera permission was denied. Please allow camera access and try again.',
  PermissionDeniedError: 'Camera permission was denied. Please allow camera access and try again.',
  NotFoundError: 'No camera found on this device. Use Upload from Gallery instead.',
  DevicesNotFoundError: 'No camera found on this device. Use Upload from Gallery instead.',
  NotReadableError: 'Camera is already in use by another application.',
  TrackStartError: 'Camera is already in use by another application.',
  OverconstrainedError: 'Camera does not support the requested resolution.',
  ConstraintNotSatisfiedError: 'Camera does not support the requested resolution.',
} as const

export function cameraErrorMessage(error: unknown) {
  const name = (error as { name?: string } | null)?.name ?? ''
  return (CAMERA_ERRORS as Record<string, string>)[name] ?? 'Could not access camera'
}

/** Rear camera at 1280x720 (ideal), captured as JPEG at 0.95 (spec 1 §9). */
export function CameraCapture({ onCapture, onClose }: { onCapture: (file: File) => void; onClose: (failed: boolean) => void }) {
  const videoRef = useRef<HTMLVideoElement>(null)
  const streamRef = useRef<MediaStream | null>(null)
  const [ready, setReady] = useState(false)

  useEffect(() => {
    let cancelled = false
    async function start() {
      if (!navigator.mediaDevices?.getUserMedia) {
        showToast({ title: 'Camera Error', description: 'Camera access is not supported in this browser', variant: 'destructive' })
        onClose(true)
        return
      }
      try {
        const stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: 'environment', width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        })
        if (cancelled) return stream.getTracks().forEach((t) => t.stop())
        streamRef.current = stream
        if (videoRef.current) {
          videoRef.current.srcObject = stream
          await videoRef.current.play().catch(() => undefined)
        }
        setReady(true)
      } catch (error) {
        showToast({ title: 'Camera Error', description: cameraErrorMessage(error), variant: 'destructive' })
        onClose(true)
      }
    }
    void start()
    return () => {
      cancelled = true
      streamRef.current?.getTracks().forEach((t) => t.stop())
    }
  }, [onClose])

  function capture() {
    const video = videoRef.current
    if (!video || !video.videoWidth) return
    const canvas = document.createElement('canvas')
    canvas.width = video.videoWidth
    canvas.height = video.videoHeight
    canvas.getContext('2d')?.drawImage(video, 0, 0)
    canvas.toBlob(
      (blob) => {
        if (!blob) {
          showToast({ title: 'Capture Error', description: 'Failed to process image', variant: 'destructive' })
          return
        }
        onCapture(new File([blob], `receipt-${Date.now()}.jpg`, { type: 'image/jpeg' }))
      },
      'image/jpeg',
      0.95,
    )
  }

  return (
    <div className="camera">
      <div className="camera-frame">
        <video ref={videoRef} playsInline muted aria-label="Camera preview" />
        <div className="camera-guide" aria-hidden="true" />
        {!ready ? (
          <div className="camera-wait" role="status">
            <span className="spinner" aria-hidden="true" /> Starting camera...
          </div>
        ) : null}
      </div>
      <div className="row" style={{ justifyContent: 'space-around', marginTop: '0.75rem' }}>
        <button type="button" className="btn secondary" onClick={() => onClose(false)}>
          <Icon name="x" /> Close
        </button>
        <button type="button" className="shutter" onClick={capture} disabled={!ready} aria-label="Take photo" />
        <span style={{ width: 88 }} aria-hidden="true" />
      </div>
    </div>
  )
}

/** Client-side checks with the spec's messages (the server checks again). */
export async function checkImageFile(file: File | null | undefined): Promise<string | null> {
  if (!file) return 'No image file provided'
  // Not a picture: say what it is and what would do (issue 39), as the server does.
  const odd = oddFileKindOf(file)
  if (odd) return oddFileMessage(odd)
  if (file.size > 5 * 1024 * 1024) return 'Image file is too large. Maximum size is 5MB'
  try {
    const bitmap = await createImageBitmap(file)
    const width = bitmap.width
    bitmap.close()
    if (width < 500) return 'Image resolution is too low. Please take a clearer photo'
  } catch {
    // HEIC and other formats the browser cannot decode: let the server decide.
  }
  return null
}
