class web::server (
  $port = 80
) {
  package { "nginx":
    ensure => installed,
  }
  file { '/etc/nginx/conf.d/site.conf':
    ensure  => file,
    mode    => 644,
    content => template('web/site.conf.erb'),
  }   
}
