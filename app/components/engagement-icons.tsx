import type { SVGProps } from 'react'
import { Icon, isIconName } from './icons'

/** Achievement and badge definitions name icons by string; unknown names fall back to a trophy. */
export function EngagementIcon({ name, title, ...props }: { name: string; title?: string } & SVGProps<SVGSVGElement>) {
  return <Icon name={isIconName(name) ? name : 'trophy'} title={title} {...props} />
}
