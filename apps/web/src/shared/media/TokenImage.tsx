import { useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ImageNotSupportedIcon from '@mui/icons-material/ImageNotSupportedOutlined';
import { useAppConfig } from '../config/useAppConfig';
import { imageUrl } from './image-uri';

/**
 * A token thumbnail as a plain <img> (SVG included: never inlined). Unsupported URIs and images that fail
 * to load show "Can't load image from thumbnail".
 */
export function TokenImage({ uri, alt, size = 96 }: { uri: string; alt: string; size?: number }) {
  const config = useAppConfig();
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const url = imageUrl(uri, config.ipfs_gateway);
  if (url === null || failedUrl === url) {
    return (
      <Box
        sx={{
          width: size,
          minHeight: size,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'center',
          justifyContent: 'center',
          textAlign: 'center',
          color: 'text.secondary',
        }}
      >
        <ImageNotSupportedIcon aria-hidden />
        <Typography variant="caption">Can&apos;t load image from thumbnail</Typography>
      </Box>
    );
  }
  return (
    <Box
      component="img"
      src={url}
      alt={alt}
      loading="lazy"
      referrerPolicy="no-referrer"
      onError={() => setFailedUrl(url)}
      sx={{ width: size, height: size, objectFit: 'contain', borderRadius: 1 }}
    />
  );
}
